import { newWebhookSecret, SecretBox } from './secret-box';

const endpoint = '0f8fad5b-d9cb-469f-a165-70867728950e';
const other = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('webhook secret storage', () => {
  const box = new SecretBox('key-material-0123456789abcdef0123456789');

  it('makes Standard Webhooks secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('opens what it sealed, and never stores the secret in the clear', () => {
    const secret = newWebhookSecret();
    const sealed = box.seal(secret, endpoint);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.open(sealed, endpoint)).toBe(secret);
    expect(box.seal(secret, endpoint)).not.toBe(sealed);
  });

  it('refuses a value sealed for another endpoint, under another key, or altered', () => {
    const sealed = box.seal(newWebhookSecret(), endpoint);
    expect(() => box.open(sealed, other)).toThrow();
    expect(() =>
      new SecretBox('another-key-material-0123456789abcdef').open(sealed, endpoint),
    ).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    parts[3] = flipped.toString('base64url');
    expect(() => box.open(parts.join('.'), endpoint)).toThrow();
    expect(() => box.open('plain', endpoint)).toThrow();
  });
});

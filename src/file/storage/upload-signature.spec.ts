import { createHmac } from 'node:crypto';
import { readUploadQuery, UploadGrant, UploadSigner } from './upload-signature';

const KEY = '0b8f4c2e-5d0a-4c52-9a57-2f7d1d1c9e01/logo/0123456789abcdef01234567-logo.png';
const GRANT: UploadGrant = {
  key: KEY,
  contentType: 'image/png',
  maxBytes: 20480,
  expires: 1900000000,
};

describe('UploadSigner', () => {
  const signer = new UploadSigner('a-secret-of-at-least-thirty-two-bytes!!');

  it('verifies its own signature', () => {
    expect(signer.verify(GRANT, signer.sign(GRANT))).toBe(true);
  });

  it.each<[string, Partial<UploadGrant>]>([
    ['key', { key: KEY.replace('logo.png', 'logo2.png') }],
    ['type', { contentType: 'image/gif' }],
    ['size', { maxBytes: 20481 }],
    ['expiry', { expires: GRANT.expires + 1 }],
  ])('refuses a grant with another %s', (_field, change) => {
    expect(signer.verify({ ...GRANT, ...change }, signer.sign(GRANT))).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    const other = new UploadSigner('another-secret-of-thirty-two-bytes!!!');
    expect(signer.verify(GRANT, other.sign(GRANT))).toBe(false);
  });

  it('does not sign with the secret itself, so signatures never pass as tokens', () => {
    const plain = new UploadSigner('x');
    const canonical = ['PUT', KEY, 'image/png', '20480', '1900000000'].join('\n');
    expect(plain.sign(GRANT)).not.toBe(createHmac('sha256', 'x').update(canonical).digest('hex'));
  });

  it.each(['', 'abc', 'z'.repeat(64), `${'0'.repeat(64)}0`, '0'.repeat(64).toUpperCase() + ' '])(
    'refuses the malformed signature %j',
    (signature) => expect(signer.verify(GRANT, signature)).toBe(false),
  );

  it('writes a query that reads back to the same grant', () => {
    const query = Object.fromEntries(new URLSearchParams(signer.queryString(GRANT)));
    const claimed = readUploadQuery(KEY, query);
    expect(claimed?.grant).toEqual(GRANT);
    expect(signer.verify(claimed!.grant, claimed!.signature)).toBe(true);
  });
});

describe('readUploadQuery', () => {
  const good = {
    content_type: 'image/png',
    max_bytes: '20480',
    expires: '1900000000',
    signature: 'ab',
  };

  it.each<[string, Record<string, unknown>]>([
    ['no type', { ...good, content_type: undefined }],
    ['a type with a newline', { ...good, content_type: 'image/png\n1' }],
    ['a type with parameters', { ...good, content_type: 'image/png; a=b' }],
    ['a size that is not a number', { ...good, max_bytes: '1e3' }],
    ['a negative size', { ...good, max_bytes: '-1' }],
    ['an expiry that is not a number', { ...good, expires: 'tomorrow' }],
    ['a repeated parameter', { ...good, expires: ['1', '2'] }],
    ['no signature', { ...good, signature: undefined }],
  ])('refuses %s', (_label, query) => {
    expect(readUploadQuery(KEY, query)).toBeUndefined();
  });
});

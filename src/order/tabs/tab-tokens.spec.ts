import { OrderTokens } from '../domain/order-token';
import { TabTokens } from './tab-tokens';

// R110: the tab token.
describe('tab tokens', () => {
  const tabs = new TabTokens('a-secret-of-the-service-0123456789');
  const uuid = '7d0c8a4e-3a52-4c7e-9a41-4f1f6d2b9c10';

  it('are 256 bits, the same for a tab every time, and differ between tabs', () => {
    const token = tabs.tokenFor(uuid);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(tabs.tokenFor(uuid.toUpperCase())).toBe(token);
    expect(tabs.tokenFor('7d0c8a4e-3a52-4c7e-9a41-4f1f6d2b9c11')).not.toBe(token);
  });

  it('open only their own tab; an order token of the same uuid opens nothing', () => {
    const token = tabs.tokenFor(uuid);
    expect(tabs.matches(uuid, token)).toBe(true);
    expect(
      tabs.matches(uuid, new OrderTokens('a-secret-of-the-service-0123456789').tokenFor(uuid)),
    ).toBe(false);
    for (const wrong of [undefined, null, 42, '', token.slice(1), `${token}x`, 'x'.repeat(200)]) {
      expect(tabs.matches(uuid, wrong)).toBe(false);
    }
  });
});

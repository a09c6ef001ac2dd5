import { isPrivateSetting, publicExtraData } from './private-settings';

describe('private settings', () => {
  it.each([
    ['paystack_subaccount_code', true],
    ['private_', true],
    ['private_pos_pin', true],
    ['Private_pos_pin', false],
    ['not_private_x', false],
    ['opening_hours', false],
  ])('%s is private: %p', (key, expected) => {
    expect(isPrivateSetting(key)).toBe(expected);
  });

  it('drops them from extra_data and keeps the rest', () => {
    expect(
      publicExtraData({
        opening_hours: { mon: [] },
        paystack_subaccount_code: 'ACCT_x',
        private_note: 'n',
        accepting_orders: true,
      }),
    ).toEqual({ opening_hours: { mon: [] }, accepting_orders: true });
  });
});

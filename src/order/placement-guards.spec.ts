import { PLACEMENT_GUARDS } from './placement-guards';

// R43, R36, R42, R44, R50, R19: the order of the guards decides which refusal answers.
describe('the placement guards', () => {
  it('run in the documented order; the slot is taken after them, by placement', () => {
    expect(PLACEMENT_GUARDS.map((guard) => guard.name)).toEqual([
      'openNow',
      'paymentMethodOffered',
      'cartLines',
      'handOverAndTime',
      'priceAndAmount',
    ]);
  });
});

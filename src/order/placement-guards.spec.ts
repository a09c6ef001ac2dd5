import { PLACEMENT_GUARDS } from './placement-guards';

// R43, R36, R42, R44, R50, R19, R54: the order of the guards decides which refusal answers.
describe('the placement guards', () => {
  it('run in the documented order, the slot last and at placement only', () => {
    expect(PLACEMENT_GUARDS.map((guard) => guard.name)).toEqual([
      'openNow',
      'paymentMethodOffered',
      'cartLines',
      'handOverAndTime',
      'priceAndAmount',
      'slotPlace',
    ]);
    expect(PLACEMENT_GUARDS.filter((guard) => guard.placeOnly).map((guard) => guard.name)).toEqual([
      'slotPlace',
    ]);
  });
});

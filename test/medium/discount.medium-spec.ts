import { randomUUID } from 'node:crypto';
import { DiscountRepository } from '../../src/discount/discount.repository';
import { DiscountFields } from '../../src/discount/domain/discount-rules';
import { createMediumContext, MediumContext } from '../support/medium';

/**
 * The discount repository on a real database, no HTTP: codes unique per
 * business ignoring case, live codes, and redemptions counted per code and
 * per guest, under a lock that lets one guest's orders count one at a time.
 */
describe('discount repository (medium)', () => {
  let ctx: MediumContext;
  let discounts: DiscountRepository;

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [DiscountRepository] });
    discounts = ctx.get(DiscountRepository);
  });
  afterAll(() => ctx?.close());

  function fields(overrides: Partial<DiscountFields> = {}): DiscountFields {
    return {
      code: `SAVE${randomUUID().slice(0, 6).toUpperCase()}`,
      kind: 'percent',
      value: '10',
      minimumOrderAmount: null,
      startsAt: null,
      endsAt: null,
      maxRedemptions: null,
      maxRedemptionsPerEmail: null,
      menuUuids: null,
      enabled: true,
      ...overrides,
    };
  }

  it('stores a code once per business; another business may use it', async () => {
    const business = randomUUID();
    const first = await discounts.insert(business, fields({ code: 'WELCOME' }));
    expect(first).toMatchObject({ businessUuid: business, code: 'WELCOME', value: '10' });
    expect(await discounts.insert(business, fields({ code: 'WELCOME' }))).toBeNull();
    expect(await discounts.insert(randomUUID(), fields({ code: 'WELCOME' }))).not.toBeNull();
    const second = await discounts.insert(business, fields({ code: 'OTHER' }));
    expect(await discounts.update(second!, fields({ code: 'WELCOME' }))).toBeNull();
  });

  it('finds a code by its text in any case; a code disabled for good leaves the live list', async () => {
    const business = randomUUID();
    const code = await discounts.insert(business, fields({ code: 'LUNCH' }));
    const kept = await discounts.insert(business, fields());
    const found = await ctx.dataSource.transaction((m) =>
      discounts.findByCode(m, business, 'lunch', 'row'),
    );
    expect(found?.uuid).toBe(code!.uuid);
    await discounts.disableForGood(code!, new Date());
    expect(await discounts.findLive(business, code!.uuid)).toBeNull();
    expect((await discounts.listLive(business)).map((d) => d.uuid)).toEqual([kept!.uuid]);
  });

  it('counts redemptions per code and per email, and gives one back with its order', async () => {
    const business = randomUUID();
    const [a, b] = [
      await discounts.insert(business, fields()),
      await discounts.insert(business, fields()),
    ];
    const orders = [randomUUID(), randomUUID(), randomUUID()];
    await ctx.dataSource.transaction(async (m) => {
      await discounts.insertRedemption(m, {
        orderUuid: orders[0],
        discountUuid: a!.uuid,
        email: 'x@example.test',
      });
      await discounts.insertRedemption(m, {
        orderUuid: orders[1],
        discountUuid: a!.uuid,
        email: 'y@example.test',
      });
      await discounts.insertRedemption(m, {
        orderUuid: orders[2],
        discountUuid: b!.uuid,
        email: 'x@example.test',
      });
      expect(await discounts.countRedemptions(m, a!.uuid, 'x@example.test')).toEqual({
        redeemed: 2,
        redeemedByEmail: 1,
      });
    });
    expect(await discounts.redemptionCounts([a!.uuid, b!.uuid, randomUUID()])).toEqual(
      new Map([
        [a!.uuid, 2],
        [b!.uuid, 1],
      ]),
    );
    expect(await discounts.redemptionCounts([])).toEqual(new Map());
    await ctx.dataSource.transaction((m) => discounts.deleteRedemption(m, orders[0]));
    expect((await discounts.redemptionCounts([a!.uuid])).get(a!.uuid)).toBe(1);
  });

  it("one guest's concurrent redemptions under the lock count one after another", async () => {
    const code = await discounts.insert(randomUUID(), fields({ maxRedemptionsPerEmail: 1 }));
    const redeem = () =>
      ctx.dataSource.transaction(async (m) => {
        await discounts.lockGuestRedemptions(m, code!.uuid, 'guest@example.test');
        const { redeemedByEmail } = await discounts.countRedemptions(
          m,
          code!.uuid,
          'guest@example.test',
        );
        if (redeemedByEmail >= 1) return false;
        await discounts.insertRedemption(m, {
          orderUuid: randomUUID(),
          discountUuid: code!.uuid,
          email: 'guest@example.test',
        });
        return true;
      });
    const outcomes = await Promise.all([redeem(), redeem(), redeem()]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await discounts.redemptionCounts([code!.uuid])).get(code!.uuid)).toBe(1);
  });
});

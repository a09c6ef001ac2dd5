import { randomUUID } from 'node:crypto';
import { Money } from '../../src/common/money';
import { EventBus } from '../../src/database/event-bus';
import { PaymentChanged, PaymentModule, PaymentService } from '../../src/payment';
import { PaymentConfirmations } from '../../src/payment/payment-confirmations';
import { PaymentRefundRepository } from '../../src/payment/payment-refund.repository';
import { PaymentRepository, PaymentRow } from '../../src/payment/payment.repository';
import { PaymentTransitions } from '../../src/payment/payment-transitions';
import { PaymentProviders } from '../../src/payment/providers/payment-providers';
import { createMediumContext, MediumContext } from '../support/medium';

/**
 * The payment module on a real database, without HTTP: its repository, its
 * transitions (paid once however many reports race), refunds across
 * payments, and the events the order hears of. No order row is needed: the
 * payment module knows orders only by the snapshot it is handed.
 */
describe('payments (medium)', () => {
  let ctx: MediumContext;
  let repository: PaymentRepository;
  let service: PaymentService;
  let confirmations: PaymentConfirmations;
  const heard: PaymentChanged[] = [];

  beforeAll(async () => {
    ctx = await createMediumContext(
      { imports: [PaymentModule] },
      { PAYSTACK_SECRET_KEY: 'sk_test_medium', PAYSTACK_BASE_URL: 'http://127.0.0.1:9' },
    );
    repository = ctx.get(PaymentRepository);
    service = ctx.get(PaymentService);
    confirmations = ctx.get(PaymentConfirmations);
    ctx.get(EventBus).on('payment.changed', async (event) => void heard.push(event));
  });
  afterAll(() => ctx?.close());
  beforeEach(() => (heard.length = 0));

  const snapshot = (amount = '2000.00') => ({
    uuid: randomUUID(),
    businessUuid: randomUUID(),
    orderReference: `M${randomUUID().slice(0, 7).toUpperCase()}`,
    amount,
    currency: 'NGN',
    email: 'guest@example.test',
    method: 'paystack',
  });

  async function payment(
    order: ReturnType<typeof snapshot>,
    n: number,
    channel: 'ussd' | 'checkout' = 'ussd',
  ) {
    return repository.insert(ctx.dataSource.manager, {
      orderUuid: order.uuid,
      businessUuid: order.businessUuid,
      method: 'paystack',
      channel,
      amount: order.amount,
      currency: 'NGN',
      reference: `${order.orderReference}-${n}`,
    });
  }

  const report = (reference: string, amountMinor: number, id: string, currency = 'NGN') => ({
    reference,
    transactionId: id,
    outcome: 'success' as const,
    amountMinor,
    currency,
    paidAt: new Date(),
    channel: 'ussd',
  });

  it('answers an order’s first payment as it is stored, its insert held until the commit unless read back', async () => {
    const bus = ctx.get(EventBus);
    const plans = [
      { method: 'paystack', online: true, currency: 'NGN', callbackUrl: null, instructions: null },
      {
        method: 'bank_transfer',
        online: false,
        currency: 'NGN',
        callbackUrl: null,
        instructions: {
          note: 'Use the order reference',
          account: { number: '0123456789', bank: 'GTB' },
        },
      },
    ] as const;
    for (const plan of plans) {
      for (const readInTransaction of [false, true]) {
        const order = snapshot('1234.50');
        const { answered, seenInside } = await bus.transaction(async (tx) => {
          const answered = await service.start(tx, order, { ...plan }, readInTransaction);
          return { answered, seenInside: await repository.ofOrders(tx.manager, [order.uuid]) };
        });
        expect(seenInside).toHaveLength(readInTransaction ? 1 : 0);
        const stored = await repository.ofOrders(ctx.dataSource.manager, [order.uuid]);
        expect(stored).toEqual([answered]);
      }
    }
    // A transaction that fails stores the held insert no more than the rest.
    const order = snapshot();
    await expect(
      bus.transaction(async (tx) => {
        await service.start(tx, order, { ...plans[0] }, false);
        throw new Error('placement refused');
      }),
    ).rejects.toThrow('placement refused');
    expect(await repository.ofOrders(ctx.dataSource.manager, [order.uuid])).toEqual([]);
  });

  it('holds a pending change for the commit, announced as it will be stored, and runs again when the payment was settled meanwhile', async () => {
    const bus = ctx.get(EventBus);
    const transitions = ctx.get(PaymentTransitions);
    const order = snapshot();
    const older = await payment(order, 1, 'checkout');
    const opened = await payment(order, 2, 'checkout');
    const set = { authorizationUrl: 'https://checkout.example/x', accessCode: 'x', error: null };
    const by = { actor: 'system', userUuid: null } as const;
    // Still pending: the change is announced before it is sent, and stored as announced.
    const announced = await bus.transaction(async (tx) => {
      const changed = await transitions.changePendingHeld(tx, opened, set, by, { last: true });
      expect(await repository.findByUuid(tx.manager, opened.uuid)).toMatchObject({
        authorizationUrl: null,
      });
      return changed;
    });
    expect(heard).toEqual([
      expect.objectContaining({ held: true, last: true, payment: announced }),
    ]);
    const [firstStored, stored] = await repository.ofOrders(ctx.dataSource.manager, [order.uuid]);
    const { updatedAt: _announcedAt, ...asAnnounced } = announced;
    expect(stored).toMatchObject(asAnnounced);
    // The order's other open checkout is replaced.
    expect(firstStored).toMatchObject({ uuid: older.uuid, status: 'abandoned' });

    // Settled meanwhile: the held change fails the transaction, which runs again as usual.
    const other = snapshot();
    const paid = await payment(other, 1, 'checkout');
    await repository.update(ctx.dataSource.manager, paid.uuid, { status: 'paid' });
    heard.length = 0;
    const runs: Array<PaymentRow | undefined> = [];
    await bus.transaction(async (tx) => {
      runs.push(
        runs.length === 0
          ? await transitions.changePendingHeld(tx, paid, set, by, { last: true })
          : await transitions.changePending(tx, paid, set, by, { replacing: true, last: true }),
      );
    });
    expect(runs).toEqual([expect.objectContaining({ uuid: paid.uuid }), undefined]);
    expect(await repository.findByUuid(ctx.dataSource.manager, paid.uuid)).toMatchObject({
      status: 'paid',
      authorizationUrl: null,
    });
    // Heard in the first run only, which rolled back.
    expect(heard).toEqual([expect.objectContaining({ held: true })]);
  });

  it('lists an order’s payments oldest first and finds one by its reference', async () => {
    const order = snapshot();
    const first = await payment(order, 1);
    const second = await payment(order, 2);
    const listed = await repository.ofOrders(ctx.dataSource.manager, [order.uuid, randomUUID()]);
    expect(listed.map((p) => p.uuid)).toEqual([first.uuid, second.uuid]);
    expect(
      (await repository.findByReference(ctx.dataSource.manager, second.reference!))?.uuid,
    ).toBe(second.uuid);
    expect(await repository.findByReference(ctx.dataSource.manager, 'none-1')).toBeUndefined();
  });

  it('pays a payment once however many reports of the charge race, and tells the order once', async () => {
    const order = snapshot();
    const p = await payment(order, 1);
    const provider = ctx.get(PaymentProviders).online('paystack')!;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        confirmations.applyReport(provider, report(p.reference!, 200000, 't-1')),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const [stored] = await repository.ofOrders(ctx.dataSource.manager, [order.uuid]);
    expect(stored).toMatchObject({ status: 'paid', amountPaid: '2000.00', transactionId: 't-1' });
    expect(heard.filter((event) => event.payment.status === 'paid')).toHaveLength(1);
  });

  it('fails a charge reported in another currency as a mismatch, counting nothing', async () => {
    const order = snapshot();
    const p = await payment(order, 1);
    const provider = ctx.get(PaymentProviders).online('paystack')!;
    expect(
      await confirmations.applyReport(provider, report(p.reference!, 200000, 't-2', 'GHS')),
    ).toBe(true);
    const [stored] = await repository.ofOrders(ctx.dataSource.manager, [order.uuid]);
    expect(stored).toMatchObject({ status: 'failed', failure: 'mismatch', amountPaid: '0.00' });
  });

  it('claims a due check once across two claimers', async () => {
    const order = snapshot();
    const p = await payment(order, 1);
    await ctx.sql(
      `UPDATE payments SET next_check_at = now() - interval '1 minute' WHERE uuid = $1`,
      [p.uuid],
    );
    const now = new Date(Date.now() + 1000);
    const lease = new Date(Date.now() + 60_000);
    const [a, b] = await Promise.all([
      repository.claimDueChecks(now, lease, 50),
      repository.claimDueChecks(now, lease, 50),
    ]);
    const claimed = [...a, ...b].filter((row) => row.uuid === p.uuid);
    expect(claimed).toHaveLength(1);
    expect(
      (await repository.claimDueChecks(now, lease, 50)).some((row) => row.uuid === p.uuid),
    ).toBe(false);
  });

  it('refunds money recorded by hand from the payment paid last first, one record per payment', async () => {
    const order = { ...snapshot('3000.00'), method: 'cash' };
    const paid = async (amount: string, at: string) =>
      repository.insert(ctx.dataSource.manager, {
        orderUuid: order.uuid,
        businessUuid: order.businessUuid,
        method: 'cash',
        channel: 'manual',
        amount,
        currency: 'NGN',
        status: 'paid',
        amountPaid: amount,
        paidAt: new Date(at),
      });
    const older = await paid('1000.00', '2026-01-01T10:00:00Z');
    const newer = await paid('2000.00', '2026-01-01T11:00:00Z');
    const by = { actor: 'owner' as const, userUuid: randomUUID() };
    const result = await service.refund(order, { amount: new Money('2500.00'), reason: null, by });
    expect(result).toEqual({ made: 2, failed: [] });
    const refunds = await ctx
      .get(PaymentRefundRepository)
      .refundsOfOrders(ctx.dataSource.manager, [order.uuid]);
    const byPayment = Object.fromEntries(refunds.map((r) => [r.paymentUuid, r.amount]));
    expect(byPayment).toEqual({ [newer.uuid]: '2000.00', [older.uuid]: '500.00' });
    await expect(
      service.refund(order, { amount: new Money('500.01'), reason: null, by }),
    ).rejects.toMatchObject({
      status: 422,
    });
  });
});

import { lockKeyOf } from './domain/paid-for';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import { EventBus } from '../database/event-bus';
import { toMinorUnits } from './domain/currency';
import { PaymentTransitions } from './payment-transitions';
import { PaymentRefundRepository, RefundRow } from './payment-refund.repository';
import { PaymentRepository } from './payment.repository';
import { RefundLookupOutcome } from './providers/payment-provider';
import { PaymentProviders } from './providers/payment-providers';

/** A refund call answers within the provider timeout; one pending this long lost its process. */
export const STALE_REFUND_AFTER_MS = 2 * 60_000;
/** A stale refund the provider cannot be asked about is given up after this long. */
export const GIVE_UP_REFUND_AFTER_MS = 30 * 60_000;
const CHECK_INTERVAL_MS = 30_000;

/**
 * Settles refunds that a stopped process left `pending` (it crashed between
 * asking the provider and writing the answer). A pending refund blocks every
 * later refund of its order, so none may stay pending: the provider is asked
 * whether it made the refund (then it counts, unless the provider's event
 * about it was counted already), and one the provider does not have is
 * marked failed. Runs in every process; each refund is settled under its
 * order's payments lock, once.
 */
@Injectable()
export class PaymentRefundSettler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Payments');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly refundRows: PaymentRefundRepository,
    private readonly transitions: PaymentTransitions,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.settleStale().catch((error: unknown) =>
        this.logger.warn(`Settling pending refunds failed: ${String(error)}`),
      );
    }, CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Settles every stale pending refund; the number settled. One pass at a time per process. */
  settleStale(): Promise<number> {
    this.running ??= this.settleAll().finally(() => (this.running = null));
    return this.running;
  }

  private async settleAll(): Promise<number> {
    const now = this.clock.nowMs();
    const stale = await this.refundRows.stalePendingRefunds(new Date(now - STALE_REFUND_AFTER_MS));
    let settled = 0;
    for (const refund of stale) {
      const giveUp = now - new Date(refund.createdAt).getTime() > GIVE_UP_REFUND_AFTER_MS;
      if (await this.settle(refund, giveUp)) settled += 1;
    }
    return settled;
  }

  private async settle(refund: RefundRow, giveUp: boolean): Promise<boolean> {
    const manager = this.payments.manager;
    const payment = await this.payments.findByUuid(manager, refund.paymentUuid);
    if (!payment) return false;
    const lookup: RefundLookupOutcome = await this.providers.get(payment.method).findRefund({
      reference: payment.reference ?? '',
      transactionId: payment.transactionId,
      amountMinor: toMinorUnits(refund.amount),
      knownRefundIds: await this.refundRows.knownRefundIds(manager, payment.uuid),
    });
    if (!lookup.ok && !giveUp) return false;
    return this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, lockKeyOf(payment));
      if (!(await this.refundRows.pendingRefund(tx.manager, refund.uuid))) return false;
      const id = lookup.ok ? lookup.refundId : null;
      if (!id) {
        const error = lookup.ok
          ? 'The provider has no such refund: the service stopped before the provider took the request.'
          : `The refund could not be confirmed with the provider: ${lookup.error}`;
        await this.refundRows.finishRefund(tx.manager, refund.uuid, 'failed', null, error);
        this.logger.warn(
          `Pending refund ${refund.uuid} of order ${payment.orderUuid} failed: ${error}`,
        );
        return true;
      }
      if (await this.refundRows.takeCountedRefund(tx.manager, payment.uuid, id, refund.uuid))
        return true;
      await this.refundRows.finishRefund(tx.manager, refund.uuid, 'succeeded', id, null);
      await this.transitions.announce(tx, payment, { actor: 'system', userUuid: null });
      return true;
    });
  }
}

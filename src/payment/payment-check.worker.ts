import { lockKeyOf } from './domain/paid-for';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { EventBus } from '../database/event-bus';
import { PaymentCharges } from './payment-charges';
import { PaymentConfirmations } from './payment-confirmations';
import { PaymentTransitions } from './payment-transitions';
import { PaymentRepository, PaymentRow } from './payment.repository';
import { ChargeOutcome } from './providers/payment-provider';
import { PaymentProviders } from './providers/payment-providers';

/** How long a claimed check keeps other replicas away (longer than a provider call). */
const LEASE_MS = 60_000;
/** A pending payment is asked about again this often until it expires or is final. */
export const CHECK_AGAIN_MS = 3 * 60_000;
const BATCH = 20;

const SYSTEM = { actor: 'system', userUuid: null } as const;

/**
 * Payments confirm themselves even when a webhook is lost: a payment still
 * `pending` two minutes after it opened is checked with the provider (Check
 * Pending Charge for a charge, Verify for a checkout), then every few
 * minutes until it is final or expires. The answer is applied by the rule of
 * the webhook (paid once, whatever races it). A charge that expires unpaid
 * fails, a checkout that expires is abandoned; the order stays payable and
 * money that still arrives is counted. Each due check is claimed with SKIP
 * LOCKED and a lease, so one replica asks, once.
 */
@Injectable()
export class PaymentCheckWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Payments');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly transitions: PaymentTransitions,
    private readonly confirmations: PaymentConfirmations,
    private readonly charges: PaymentCharges,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.checkDue().catch((error: unknown) =>
        this.logger.warn(`Checking pending payments failed: ${String(error)}`),
      );
    }, this.config.paymentCheckIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Checks every payment whose check is due; the number checked. One pass at a time per process. */
  checkDue(): Promise<number> {
    this.running ??= this.checkAll().finally(() => (this.running = null));
    return this.running;
  }

  private async checkAll(): Promise<number> {
    let checked = 0;
    for (;;) {
      const now = this.clock.nowMs();
      const due = await this.payments.claimDueChecks(
        new Date(now),
        new Date(now + LEASE_MS),
        BATCH,
      );
      for (const payment of due) {
        await this.check(payment).catch((error: unknown) =>
          this.logger.warn(`Checking payment ${payment.uuid} failed: ${String(error)}`),
        );
      }
      checked += due.length;
      if (due.length < BATCH) return checked;
    }
  }

  private async check(payment: PaymentRow): Promise<void> {
    const provider = this.providers.online(payment.method);
    if (!provider || !payment.reference) return this.stopChecking(payment);
    if (payment.channel === 'checkout') {
      const answer = await provider.verify(payment.reference);
      if (answer.ok && answer.charge.outcome !== 'pending') {
        await this.confirmations.applyReport(provider, answer.charge);
        return;
      }
    } else {
      const answer: ChargeOutcome = await provider.checkCharge(payment.reference);
      if (answer.ok && answer.state.kind === 'paid') {
        await this.confirmations.applyReport(provider, answer.state.charge);
        return;
      }
      if (answer.ok && answer.state.kind === 'failed') {
        await this.charges.record(lockKeyOf(payment), payment.uuid, answer);
        return;
      }
    }
    await this.checkAgainOrExpire(payment);
  }

  /** Still pending: asked again later, or, past its expiry, failed (a charge) or abandoned (a checkout). */
  private async checkAgainOrExpire(claimed: PaymentRow): Promise<void> {
    const now = this.clock.nowMs();
    await this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, lockKeyOf(claimed));
      const payment = (await this.payments.findByUuid(tx.manager, claimed.uuid, true))!;
      if (payment.status !== 'pending') return;
      const expired = payment.expiresAt !== null && new Date(payment.expiresAt).getTime() <= now;
      if (!expired) {
        await this.payments.update(tx.manager, payment.uuid, {
          nextCheckAt: new Date(now + CHECK_AGAIN_MS),
        });
        return;
      }
      await this.transitions.change(
        tx,
        payment,
        payment.channel === 'checkout'
          ? { status: 'abandoned', nextCheckAt: null }
          : {
              status: 'failed',
              failure: 'expired',
              error: 'The payment was not completed in time.',
              nextAction: null,
              nextCheckAt: null,
            },
        SYSTEM,
      );
    });
  }

  private async stopChecking(payment: PaymentRow): Promise<void> {
    await this.payments.update(this.payments.manager, payment.uuid, { nextCheckAt: null });
  }
}

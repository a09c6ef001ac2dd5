import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import { acceptanceDeadline } from './acceptance-deadline';
import { AcceptanceDeadlineRepository } from './acceptance-deadline.repository';
import { OrderExpiryService } from './order-expiry.service';

/** How often the deadlines are looked at: a late order is rejected within this of its deadline. */
export const DEADLINE_CHECK_MS = 20_000;
const BATCH = 50;

/**
 * Rejects orders nobody accepted in time: every 20 s, the pending
 * orders of businesses with `acceptance_deadline_minutes` that are past
 * their deadline at the service clock's now are rejected and refunded, one
 * transaction each, claimed without waiting so that replicas share the work
 * and never do it twice; then refunds a stopped process left owed.
 */
@Injectable()
export class AcceptanceDeadlineWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Orders');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    private readonly deadlines: AcceptanceDeadlineRepository,
    private readonly expiry: OrderExpiryService,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.runDue().catch((error: unknown) =>
        this.logger.warn(`Rejecting late orders failed: ${String(error)}`),
      );
    }, DEADLINE_CHECK_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Rejects every order past its deadline now; the number this process rejected. One pass at a time. */
  runDue(): Promise<number> {
    this.running ??= this.runAll().finally(() => (this.running = null));
    return this.running;
  }

  private async runAll(): Promise<number> {
    let rejected = 0;
    const seen = new Set<string>();
    for (;;) {
      const now = this.clock.now();
      const candidates = await this.deadlines.candidates(now, BATCH);
      const due = candidates.filter((order) => {
        const deadline = acceptanceDeadline(order);
        return !seen.has(order.uuid) && deadline !== null && deadline <= now;
      });
      for (const order of due) {
        seen.add(order.uuid);
        const done = await this.expiry.expire(order).catch((error: unknown) => {
          this.logger.warn(`Rejecting late order ${order.uuid} failed: ${String(error)}`);
          return false;
        });
        if (done) rejected += 1;
      }
      if (candidates.length < BATCH || due.length === 0) break;
    }
    await this.expiry.refundAllOwed(BATCH);
    return rejected;
  }
}

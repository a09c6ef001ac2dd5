import { OutboxLaneSettings } from '../config/config';
import { LaneKinds, OutboxLaneName } from './outbox-lanes';
import { Claimed, ClaimedRow, ClaimRequest } from './outbox.repository';

/**
 * Wake-ups (commits, the poll) that arrive within this long share one claim:
 * under a burst of orders a lane claims a few rows at a time instead of
 * running a claim per commit. Small beside the second a row may take.
 */
const WAKE_GATHER_MS = 20;

/** What a lane needs of the worker that runs it. */
export interface LaneWork {
  /** Claims due rows of the lane (OutboxRepository.claimDue with the worker's clock and lease). */
  claim(request: ClaimRequest): Promise<Claimed>;
  /** Performs one claimed row and records its outcome; never rejects for a failed delivery. */
  deliver(lane: OutboxLaneName, row: ClaimedRow): Promise<void>;
  /** A delivery of this lane has finished. */
  settled(): void;
  /** Something went wrong outside a delivery (a claim failed): logged. */
  warn(message: string): void;
}

/**
 * One lane of the outbox: at most `concurrency` deliveries in flight in this
 * process, at most `perReceiver` of them for one receiver. It claims only
 * rows it can start at once (never a batch that waits behind a slow one), and
 * claims again when a slot frees while more may be due. A wake-up (a commit,
 * the poll) while a claim runs is remembered, not lost, and wake-ups coalesce
 * into at most one more claim.
 */
// R77: one receiver never holds back another.
export class OutboxLane {
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Rows in flight per receiver. */
  private readonly busy = new Map<string, number>();
  private chain: Promise<unknown> = Promise.resolve();
  private fillQueued = false;
  private gathering: NodeJS.Timeout | undefined;
  /** More rows may be due than the last claim took. */
  private backlog = true;
  private stopped = false;

  constructor(
    readonly name: OutboxLaneName,
    readonly settings: OutboxLaneSettings,
    private readonly kinds: LaneKinds,
    private readonly work: LaneWork,
  ) {}

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Receivers whose rows wait for one of their own in flight here to finish. */
  get receiversAtCap(): number {
    let count = 0;
    for (const n of this.busy.values()) if (n >= this.settings.perReceiver) count += 1;
    return count;
  }

  /**
   * Rows may be due (a commit, the poll): claim in a moment, once for every
   * wake-up that arrives meanwhile.
   */
  wake(): void {
    this.backlog = true;
    if (this.fillQueued || this.stopped) return;
    this.fillQueued = true;
    this.gathering = setTimeout(() => this.refill(), WAKE_GATHER_MS);
    this.gathering.unref();
  }

  /**
   * Claims and starts what the lane can start now. Answers how many rows it
   * started, and whether it then found nothing more it could start (rather
   * than stopping because the lane was full).
   */
  async fill(): Promise<{ started: number; exhausted: boolean }> {
    const started = await this.queueFill();
    return { started, exhausted: !this.backlog };
  }

  /** No claim after this; deliveries in flight go on. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.gathering);
  }

  /** Resolves once no claim runs and nothing is in flight. */
  async idle(): Promise<void> {
    await this.chain;
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }

  /** Claims never overlap within a lane, so its free slots and receiver counts are exact. */
  private queueFill(before?: () => void): Promise<number> {
    const run = this.chain.then((): Promise<number> => {
      before?.();
      return this.claimWhileRoom();
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async claimWhileRoom(): Promise<number> {
    let started = 0;
    while (!this.stopped) {
      const take = this.settings.concurrency - this.inFlight.size;
      if (take <= 0) {
        // Full: a finishing delivery claims again.
        this.backlog = true;
        break;
      }
      const { rows, seen } = await this.work.claim({
        kinds: this.kinds,
        take,
        perReceiver: this.settings.perReceiver,
        busy: new Map(this.busy),
      });
      for (const row of rows) this.start(row);
      started += rows.length;
      if (rows.length < take && seen <= rows.length) {
        // Everything due was taken, apart from receivers at their cap.
        this.backlog = false;
        break;
      }
      // Full now, or rows were left for receivers that just reached their cap: claim past them.
    }
    return started;
  }

  private start(row: ClaimedRow): void {
    if (row.receiver !== null) this.busy.set(row.receiver, (this.busy.get(row.receiver) ?? 0) + 1);
    const delivery = this.work
      .deliver(this.name, row)
      .catch((error: unknown) =>
        this.work.warn(`Outbox ${this.name} ${row.uuid} delivery failed: ${String(error)}`),
      )
      .finally(() => this.finish(row));
    this.inFlight.set(row.uuid, delivery);
  }

  private finish(row: ClaimedRow): void {
    this.inFlight.delete(row.uuid);
    let receiverWasAtCap = false;
    if (row.receiver !== null) {
      const count = this.busy.get(row.receiver) ?? 1;
      receiverWasAtCap = count >= this.settings.perReceiver;
      if (count <= 1) this.busy.delete(row.receiver);
      else this.busy.set(row.receiver, count - 1);
    }
    this.work.settled();
    // A slot is free: claim again at once if more was due, or if this row's
    // receiver was at its cap (its rows were passed over).
    if ((this.backlog || receiverWasAtCap) && !this.fillQueued && !this.stopped) {
      this.backlog = true;
      this.fillQueued = true;
      this.refill();
    }
  }

  /** The queued claim, now. */
  private refill(): void {
    this.gathering = undefined;
    this.queueFill(() => (this.fillQueued = false)).catch((error: unknown) =>
      this.work.warn(`Outbox ${this.name} lane could not claim rows: ${String(error)}`),
    );
  }
}

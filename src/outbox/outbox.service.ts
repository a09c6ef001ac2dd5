import { Injectable } from '@nestjs/common';
import { keepPlan } from '../database/kept-plans';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { preparedQuery } from '../database/prepared-query';
import { jsonb, queryBuilder, sql, Table } from '../database/query-builder';
import { writeBeforeCommit } from '../database/writes-before-commit';
import { MailMessage } from '../mail/mail.port';
import { OutboxEntity, OutboxKind } from './outbox.entity';
import { laneOfKind } from './outbox-lanes';
import { OutboxSignal } from './outbox-signal';

export type { MailMessage } from '../mail/mail.port';

const db = queryBuilder<{
  outbox: Table<
    OutboxEntity,
    | 'uuid'
    | 'status'
    | 'attempts'
    | 'availableAt'
    | 'lastError'
    | 'createdAt'
    | 'sentAt'
    | 'receiver'
  >;
}>();

/** A row of the outbox, due now when `availableAt` is left out; built once for each shape. */
const insertRow = preparedQuery(
  ({
    row: { payload, availableAt, ...row },
  }: {
    row: {
      kind: OutboxKind;
      payload: Record<string, unknown>;
      availableAt?: Date;
      receiver: string | null;
    };
  }) =>
    db.insertInto('outbox').values({
      ...row,
      payload: jsonb(payload),
      availableAt: availableAt ?? sql<Date>`now()`,
    }),
  { expand: ['row'] },
);

/**
 * Writes side effects into the outbox inside the caller's transaction, so they
 * leave only if that transaction commits, and a worker delivers them after:
 * a row due now wakes its lane at the commit.
 */
// R25: mail through the outbox.
@Injectable()
export class OutboxService {
  constructor(
    private readonly signal: OutboxSignal,
    private readonly clock: Clock,
  ) {}

  /** `manager` must be the transaction's manager (a pool of 1 deadlocks otherwise). */
  async enqueueMail(manager: EntityManager, message: MailMessage): Promise<void> {
    await this.enqueueAt(manager, 'mail', { ...message });
  }

  async enqueueRealtime(manager: EntityManager, event: Record<string, unknown>): Promise<void> {
    await this.enqueueAt(manager, 'realtime', event);
  }

  /**
   * A row for the handler registered for `kind`, due at `availableAt` (now
   * when left out): a handler that keeps its own retry schedule enqueues its
   * next attempt this way. `receiver` names who receives it (a webhook
   * endpoint, a message provider): a process has at most a few of one
   * receiver's rows in flight, so a slow one delays only its own.
   */
  async enqueueAt(
    manager: EntityManager,
    kind: OutboxKind,
    payload: Record<string, unknown>,
    availableAt?: Date,
    receiver?: string,
  ): Promise<void> {
    // A row inserted from its values: its plan may be kept.
    await writeBeforeCommit(
      manager,
      keepPlan(insertRow({ row: { kind, payload, availableAt, receiver: receiver ?? null } })),
    );
    // A row due later is found by the poll once it is due.
    if (!availableAt || availableAt.getTime() <= this.clock.nowMs()) {
      await this.signal.announce(manager, laneOfKind(kind));
    }
  }
}

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { jsonb, queryBuilder, Table } from '../database/query-builder';
import { writeBeforeCommit } from '../database/writes-before-commit';
import { MailMessage } from '../mail/mail.port';
import { OutboxEntity, OutboxKind } from './outbox.entity';

const db = queryBuilder<{
  outbox: Table<
    OutboxEntity,
    'uuid' | 'status' | 'attempts' | 'availableAt' | 'lastError' | 'createdAt' | 'sentAt'
  >;
}>();

export type { MailMessage } from '../mail/mail.port';

/**
 * Writes side effects into the outbox inside the caller's transaction, so they
 * leave only if that transaction commits, and a worker delivers them after.
 */
// R25: mail through the outbox.
@Injectable()
export class OutboxService {
  /** `manager` must be the transaction's manager (a pool of 1 deadlocks otherwise). */
  async enqueueMail(manager: EntityManager, message: MailMessage): Promise<void> {
    await this.enqueue(manager, 'mail', { ...message });
  }

  async enqueueRealtime(manager: EntityManager, event: Record<string, unknown>): Promise<void> {
    await this.enqueue(manager, 'realtime', event);
  }

  /**
   * A row for the handler registered for `kind`, due at `availableAt` (now
   * when left out): a handler that keeps its own retry schedule enqueues its
   * next attempt this way.
   */
  async enqueueAt(
    manager: EntityManager,
    kind: OutboxKind,
    payload: Record<string, unknown>,
    availableAt?: Date,
  ): Promise<void> {
    await writeBeforeCommit(
      manager,
      db.insertInto('outbox').values({ kind, payload: jsonb(payload), availableAt }),
    );
  }

  private async enqueue(
    manager: EntityManager,
    kind: OutboxKind,
    payload: Record<string, unknown>,
  ): Promise<void> {
    await writeBeforeCommit(
      manager,
      db.insertInto('outbox').values({ kind, payload: jsonb(payload) }),
    );
  }
}

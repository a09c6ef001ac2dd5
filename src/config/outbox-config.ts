import { Env, int } from './env-readers';

/** How many deliveries of one outbox lane run at once in a process, in all and per receiver. */
export interface OutboxLaneSettings {
  concurrency: number;
  /** At most this many of them for one receiver (a webhook endpoint, a message provider). */
  perReceiver: number;
}

/** The outbox's delivery lanes, one per kind of side effect. */
export type OutboxLanes = Record<'mail' | 'webhook' | 'message', OutboxLaneSettings>;

/**
 * Each outbox lane's concurrency and its cap per receiver (never above the
 * lane's own). Every mail goes to the one SMTP relay, so the mail lane's cap
 * is its concurrency.
 */
export function outboxLanes(env: Env): OutboxLanes {
  const lane = (concurrency: number, perReceiver: number): OutboxLaneSettings => ({
    concurrency,
    perReceiver: Math.min(perReceiver, concurrency),
  });
  const mail = int(env, 'OUTBOX_MAIL_CONCURRENCY', 8, 1, 256);
  return {
    mail: lane(mail, mail),
    webhook: lane(
      int(env, 'OUTBOX_WEBHOOK_CONCURRENCY', 16, 1, 256),
      int(env, 'OUTBOX_WEBHOOK_PER_ENDPOINT', 2, 1, 64),
    ),
    message: lane(
      int(env, 'OUTBOX_MESSAGE_CONCURRENCY', 8, 1, 256),
      int(env, 'OUTBOX_MESSAGE_PER_PROVIDER', 4, 1, 64),
    ),
  };
}

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { ApiError } from '../http/api-error';
import { IdempotencyRepository } from './idempotency.repository';

/** An Idempotency-Key names one request for this long. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** 1–128 visible ASCII characters (what an HTTP header can carry unambiguously). */
const KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;

export type IdempotentStart = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

/**
 * Idempotency-Key handling, inside the caller's transaction: the same key
 * with the same body replays the first answer; with another body, 409.
 *
 * begin() inserts the key row first. Concurrent requests with the same key
 * block on that row's unique index until the first transaction ends: when it
 * committed they find its stored answer and replay it; when it rolled back
 * (a refused order stores nothing) one of them takes the key over. No request
 * ever waits on a lock while another one needs its connection, so the
 * embedded database's single connection simply runs them one after another.
 */
// R20: idempotent placement.
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly repository: IdempotencyRepository,
    private readonly clock: Clock,
  ) {}

  /** The header value, checked; undefined when none was sent. */
  parseKey(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    if (!KEY_PATTERN.test(header)) {
      throw ApiError.validation([
        {
          field: 'Idempotency-Key',
          message: 'Idempotency-Key must be 1 to 128 visible ASCII characters',
        },
      ]);
    }
    return header;
  }

  async begin(
    manager: EntityManager,
    scope: string,
    key: string,
    requestHash: string,
  ): Promise<IdempotentStart> {
    const now = this.clock.now();
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
    if (await this.repository.claim(manager, scope, key, requestHash, now, expiredBefore)) {
      return { kind: 'new' };
    }
    const stored = await this.repository.find(manager, scope, key);
    if (!stored || stored.responseStatus === null) {
      // Unreachable while answers are stored in the claiming transaction; kept as a safe refusal.
      throw ApiError.conflict('A request with this Idempotency-Key is still being processed.');
    }
    if (stored.requestHash !== requestHash) {
      throw ApiError.conflict(
        'This Idempotency-Key was already used with a different request body.',
        [{ field: 'Idempotency-Key', message: 'reused with a different body within 24 hours' }],
      );
    }
    return { kind: 'replay', status: stored.responseStatus, body: stored.responseBody };
  }

  async complete(
    manager: EntityManager,
    scope: string,
    key: string,
    answer: { status: number; body: unknown; resourceUuid: string },
  ): Promise<void> {
    await this.repository.complete(manager, scope, key, answer);
  }

  /** Keys past the window are useless; dropping them keeps the table small. */
  async purgeExpired(): Promise<number> {
    return this.repository.purgeOlderThan(new Date(this.clock.nowMs() - IDEMPOTENCY_WINDOW_MS));
  }
}

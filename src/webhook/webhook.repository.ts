import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { WebhookDeliveryEntity, WebhookDeliveryStatus, WebhookEndpointEntity } from './entities';

export interface NewEndpoint {
  uuid: string;
  ownerUuid: string;
  businessUuid: string | null;
  url: string;
  description: string | null;
  events: string[];
  secretCiphertext: string;
}

export type EndpointChanges = Partial<
  Pick<WebhookEndpointEntity, 'url' | 'events' | 'description' | 'enabled' | 'consecutiveFailures'>
>;

export interface NewAttempt {
  eventUuid: string;
  endpointUuid: string;
  attempt: number;
  createdAt: Date;
  dueAt: Date;
}

/** An attempt with what sending it needs: the event's bytes and the endpoint. */
export interface AttemptToSend {
  uuid: string;
  attempt: number;
  status: WebhookDeliveryStatus;
  eventUuid: string;
  eventType: string;
  body: string;
  endpointUuid: string;
  ownerUuid: string;
  url: string;
  enabled: boolean;
  secretCiphertext: string;
}

export interface AttemptOutcome {
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
  nextAttemptAt: Date | null;
}

export type DeliveryRow = WebhookDeliveryEntity & { eventType: string };

const DELIVERY_COLUMNS = `d.uuid, d.event_uuid, d.endpoint_uuid, d.attempt, d.status, d.response_status,
  d.error, d.response_body, d.duration_ms, d.created_at, d.next_attempt_at, e.type AS event_type`;

interface DeliverySqlRow {
  uuid: string;
  event_uuid: string;
  endpoint_uuid: string;
  attempt: number;
  status: WebhookDeliveryStatus;
  response_status: number | null;
  error: string | null;
  response_body: string | null;
  duration_ms: number | null;
  created_at: Date;
  next_attempt_at: Date | null;
  event_type: string;
}

function toDelivery(row: DeliverySqlRow): DeliveryRow {
  return Object.assign(new WebhookDeliveryEntity(), {
    uuid: row.uuid,
    eventUuid: row.event_uuid,
    endpointUuid: row.endpoint_uuid,
    attempt: Number(row.attempt),
    status: row.status,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    error: row.error,
    responseBody: row.response_body,
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    createdAt: new Date(row.created_at),
    nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : null,
    eventType: row.event_type,
  });
}

/** All SQL of webhook endpoints, events and delivery attempts. */
@Injectable()
export class WebhookRepository {
  constructor(private readonly dataSource: DataSource) {}

  private endpoints(manager: EntityManager = this.dataSource.manager) {
    return manager.getRepository(WebhookEndpointEntity);
  }

  /** Counted under a lock on the owner's rows, so two creates at once cannot both pass the limit. */
  async lockAndCountForOwner(manager: EntityManager, ownerUuid: string): Promise<number> {
    // Serialises creates per owner; the advisory lock ends with the transaction.
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('webhook-endpoints:' || $1))`, [
      ownerUuid,
    ]);
    const [row]: Array<{ count: string }> = await manager.query(
      'SELECT count(*)::text AS count FROM webhook_endpoints WHERE owner_uuid = $1',
      [ownerUuid],
    );
    return Number(row.count);
  }

  async insertEndpoint(
    manager: EntityManager,
    endpoint: NewEndpoint,
  ): Promise<WebhookEndpointEntity> {
    const repo = this.endpoints(manager);
    return repo.save(repo.create({ ...endpoint, enabled: true, consecutiveFailures: 0 }));
  }

  async listForOwner(ownerUuid: string): Promise<WebhookEndpointEntity[]> {
    return this.endpoints().find({
      where: { ownerUuid },
      order: { createdAt: 'DESC', uuid: 'DESC' },
    });
  }

  async findEndpoint(uuid: string): Promise<WebhookEndpointEntity | null> {
    return this.endpoints().findOneBy({ uuid });
  }

  async updateEndpoint(uuid: string, changes: EndpointChanges): Promise<WebhookEndpointEntity> {
    await this.endpoints().update({ uuid }, changes);
    return this.endpoints().findOneByOrFail({ uuid });
  }

  async setSecret(uuid: string, secretCiphertext: string): Promise<void> {
    await this.endpoints().update({ uuid }, { secretCiphertext });
  }

  /** Its events and attempts go with it (ON DELETE CASCADE). */
  async deleteEndpoint(uuid: string): Promise<void> {
    await this.endpoints().delete({ uuid });
  }

  /** The enabled endpoints of an owner that want `type` for orders of `businessUuid`. */
  async matchingEndpoints(
    manager: EntityManager,
    ownerUuid: string,
    businessUuid: string,
    type: string,
  ): Promise<string[]> {
    const rows: Array<{ uuid: string }> = await manager.query(
      `SELECT uuid FROM webhook_endpoints
        WHERE owner_uuid = $1 AND enabled
          AND (business_uuid IS NULL OR business_uuid = $2)
          AND events @> $3::jsonb
        ORDER BY created_at, uuid`,
      [ownerUuid, businessUuid, JSON.stringify([type])],
    );
    return rows.map((row) => row.uuid);
  }

  async insertEvent(
    manager: EntityManager,
    event: { uuid: string; endpointUuid: string; type: string; body: string; createdAt: Date },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO webhook_events (uuid, endpoint_uuid, type, body, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [event.uuid, event.endpointUuid, event.type, event.body, event.createdAt],
    );
  }

  /** The next attempt number of an event, with the event locked so two new attempts never share one. */
  async nextAttemptNumber(manager: EntityManager, eventUuid: string): Promise<number> {
    await manager.query('SELECT uuid FROM webhook_events WHERE uuid = $1 FOR UPDATE', [eventUuid]);
    const [row]: Array<{ max: number | null }> = await manager.query(
      'SELECT max(attempt) AS max FROM webhook_deliveries WHERE event_uuid = $1',
      [eventUuid],
    );
    return Number(row.max ?? 0) + 1;
  }

  async insertAttempt(manager: EntityManager, attempt: NewAttempt): Promise<string> {
    const [row]: Array<{ uuid: string }> = await manager.query(
      `INSERT INTO webhook_deliveries (event_uuid, endpoint_uuid, attempt, status, created_at, next_attempt_at)
       VALUES ($1, $2, $3, 'pending', $4, $5) RETURNING uuid`,
      [attempt.eventUuid, attempt.endpointUuid, attempt.attempt, attempt.createdAt, attempt.dueAt],
    );
    return row.uuid;
  }

  /** An endpoint's delivery log, newest first. */
  async listDeliveries(
    endpointUuid: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const rows: DeliverySqlRow[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS}
         FROM webhook_deliveries d JOIN webhook_events e ON e.uuid = d.event_uuid
        WHERE d.endpoint_uuid = $1
        ORDER BY d.created_at DESC, d.attempt DESC, d.uuid DESC
        LIMIT $2 OFFSET $3`,
      [endpointUuid, perPage, (page - 1) * perPage],
    );
    const [count]: Array<{ total: string }> = await this.dataSource.query(
      'SELECT count(*)::text AS total FROM webhook_deliveries WHERE endpoint_uuid = $1',
      [endpointUuid],
    );
    return { rows: rows.map(toDelivery), total: Number(count.total) };
  }

  async findDelivery(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DeliveryRow | null> {
    const rows: DeliverySqlRow[] = await manager.query(
      `SELECT ${DELIVERY_COLUMNS}
         FROM webhook_deliveries d JOIN webhook_events e ON e.uuid = d.event_uuid
        WHERE d.uuid = $1`,
      [uuid],
    );
    return rows.length ? toDelivery(rows[0]) : null;
  }

  async findAttemptToSend(uuid: string): Promise<AttemptToSend | null> {
    const rows: Array<{
      uuid: string;
      attempt: number;
      status: WebhookDeliveryStatus;
      event_uuid: string;
      event_type: string;
      body: string;
      endpoint_uuid: string;
      owner_uuid: string;
      url: string;
      enabled: boolean;
      secret_ciphertext: string;
    }> = await this.dataSource.query(
      `SELECT d.uuid, d.attempt, d.status, e.uuid AS event_uuid, e.type AS event_type, e.body,
              w.uuid AS endpoint_uuid, w.owner_uuid, w.url, w.enabled, w.secret_ciphertext
         FROM webhook_deliveries d
         JOIN webhook_events e ON e.uuid = d.event_uuid
         JOIN webhook_endpoints w ON w.uuid = d.endpoint_uuid
        WHERE d.uuid = $1`,
      [uuid],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      uuid: row.uuid,
      attempt: Number(row.attempt),
      status: row.status,
      eventUuid: row.event_uuid,
      eventType: row.event_type,
      body: row.body,
      endpointUuid: row.endpoint_uuid,
      ownerUuid: row.owner_uuid,
      url: row.url,
      enabled: row.enabled,
      secretCiphertext: row.secret_ciphertext,
    };
  }

  /** Records a pending attempt's result; false when it was no longer pending (recorded already). */
  async finishAttempt(
    manager: EntityManager,
    uuid: string,
    outcome: AttemptOutcome,
  ): Promise<boolean> {
    const [, affected]: [unknown, number] = await manager.query(
      `UPDATE webhook_deliveries
          SET status = $2, response_status = $3, error = $4, response_body = $5,
              duration_ms = $6, next_attempt_at = $7
        WHERE uuid = $1 AND status = 'pending'`,
      [
        uuid,
        outcome.status,
        outcome.responseStatus,
        outcome.error,
        outcome.responseBody,
        outcome.durationMs,
        outcome.nextAttemptAt,
      ],
    );
    return affected > 0;
  }

  async resetFailures(manager: EntityManager, endpointUuid: string): Promise<void> {
    await manager.query(
      'UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE uuid = $1 AND consecutive_failures <> 0',
      [endpointUuid],
    );
  }

  /**
   * Counts one more failed delivery; at `limit` in a row the endpoint is
   * disabled. Answers whether this call disabled it.
   */
  async countFailure(
    manager: EntityManager,
    endpointUuid: string,
    limit: number,
  ): Promise<boolean> {
    const before: Array<{ enabled: boolean }> = await manager.query(
      'SELECT enabled FROM webhook_endpoints WHERE uuid = $1 FOR UPDATE',
      [endpointUuid],
    );
    if (before.length === 0) return false;
    const [rows]: [Array<{ enabled: boolean }>, number] = await manager.query(
      `UPDATE webhook_endpoints
          SET consecutive_failures = consecutive_failures + 1,
              enabled = enabled AND consecutive_failures + 1 < $2,
              updated_at = now()
        WHERE uuid = $1
      RETURNING enabled`,
      [endpointUuid, limit],
    );
    return before[0].enabled && !rows[0].enabled;
  }
}

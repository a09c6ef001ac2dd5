import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { EntityRecord } from '../entity';
import {
  execute,
  fetchAll,
  fetchOne,
  jsonb,
  queryBuilder,
  sql,
  Table,
} from '../database/query-builder';
import { takeTransactionLock } from '../database/transaction-locks';
import {
  GuestMessageConsentEntity,
  GuestMessageEntity,
  GuestMessageLimitNoticeEntity,
  GuestMessageStatus,
  GuestMessageStopEntity,
} from './entities';

const db = queryBuilder<{
  guestMessages: Table<
    GuestMessageEntity,
    'uuid' | 'provider' | 'providerMessageId' | 'error' | 'fallback' | 'createdAt' | 'updatedAt'
  >;
  guestMessageConsents: Table<GuestMessageConsentEntity>;
  guestMessageStops: Table<GuestMessageStopEntity, 'createdAt'>;
  guestMessageLimitNotices: Table<GuestMessageLimitNoticeEntity>;
  entities: Table<EntityRecord>;
}>();

export type GuestMessageRow = GuestMessageEntity;
export type NewGuestMessage = Pick<
  GuestMessageEntity,
  | 'businessUuid'
  | 'orderUuid'
  | 'event'
  | 'channel'
  | 'phone'
  | 'language'
  | 'parameters'
  | 'status'
> & { fallback?: boolean; error?: string | null };

/** What a message needs of its business: its name, key, owner and settings. */
export type BusinessRow = Pick<
  EntityRecord,
  'uuid' | 'titleName' | 'metaKey' | 'ownedBy' | 'extraData'
>;

/** Statuses a message may be moved to by the provider's later word, from which. */
const MOVES_FROM: Record<'delivered' | 'read' | 'failed', GuestMessageStatus[]> = {
  delivered: ['sent'],
  read: ['sent', 'delivered'],
  failed: ['queued', 'sent', 'delivered'],
};

/** Messages that count against the monthly limit: all but those never sent. */
const NOT_COUNTED: GuestMessageStatus[] = ['skipped_limit', 'stopped'];

@Injectable()
export class GuestMessageRepository {
  constructor(private readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insertConsent(manager: EntityManager, consent: GuestMessageConsentEntity): Promise<void> {
    await execute(
      manager,
      db
        .insertInto('guestMessageConsents')
        .values(consent)
        .onConflict((conflict) => conflict.column('orderUuid').doNothing()),
    );
  }

  consentOf(
    orderUuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<GuestMessageConsentEntity | undefined> {
    return fetchOne(
      manager,
      db.selectFrom('guestMessageConsents').selectAll().where('orderUuid', '=', orderUuid),
    );
  }

  business(manager: EntityManager, uuid: string): Promise<BusinessRow | undefined> {
    return fetchOne(
      manager,
      db
        .selectFrom('entities')
        .select(['uuid', 'titleName', 'metaKey', 'ownedBy', 'extraData'])
        .where('uuid', '=', uuid),
    );
  }

  async isStopped(manager: EntityManager, businessUuid: string, phone: string): Promise<boolean> {
    const row = await fetchOne(
      manager,
      db
        .selectFrom('guestMessageStops')
        .select('phone')
        .where('businessUuid', '=', businessUuid)
        .where('phone', '=', phone),
    );
    return row !== undefined;
  }

  async addStop(manager: EntityManager, businessUuid: string, phone: string): Promise<void> {
    await execute(
      manager,
      db
        .insertInto('guestMessageStops')
        .values({ businessUuid, phone })
        .onConflict((conflict) => conflict.columns(['businessUuid', 'phone']).doNothing()),
    );
  }

  /** Serialises the business's counting against its monthly limit until the transaction ends. */
  lockBusiness(manager: EntityManager, businessUuid: string): Promise<void> {
    return takeTransactionLock(manager, 'guest_messages', businessUuid);
  }

  async countedBetween(
    manager: EntityManager,
    businessUuid: string,
    start: Date,
    end: Date,
  ): Promise<number> {
    const row = await fetchOne(
      manager,
      db
        .selectFrom('guestMessages')
        .select(sql<number>`count(*)::int`.as('count'))
        .where('businessUuid', '=', businessUuid)
        .where('createdAt', '>=', start)
        .where('createdAt', '<', end)
        .where('status', 'not in', NOT_COUNTED),
    );
    return row?.count ?? 0;
  }

  /** Inserts the message unless its order, event and channel have one; answers its uuid, or null. */
  async insertMessage(
    manager: EntityManager,
    message: NewGuestMessage,
    createdAt: Date,
  ): Promise<string | null> {
    const row = await fetchOne(
      manager,
      db
        .insertInto('guestMessages')
        .values({
          ...message,
          parameters: jsonb(message.parameters),
          fallback: message.fallback ?? false,
          error: message.error ?? null,
          createdAt,
          updatedAt: createdAt,
        })
        .onConflict((conflict) => conflict.columns(['orderUuid', 'event', 'channel']).doNothing())
        .returning('uuid'),
    );
    return row?.uuid ?? null;
  }

  /** Answers whether the month's notice was new (the owner is told once a month). */
  async insertLimitNotice(
    manager: EntityManager,
    businessUuid: string,
    month: string,
  ): Promise<boolean> {
    const row = await fetchOne(
      manager,
      db
        .insertInto('guestMessageLimitNotices')
        .values({ businessUuid, month })
        .onConflict((conflict) => conflict.columns(['businessUuid', 'month']).doNothing())
        .returning('month'),
    );
    return row !== undefined;
  }

  find(uuid: string, manager: EntityManager = this.dataSource.manager) {
    return fetchOne(manager, db.selectFrom('guestMessages').selectAll().where('uuid', '=', uuid));
  }

  /** The message and its row lock, for a change that reads it first. */
  findForUpdate(manager: EntityManager, uuid: string) {
    return fetchOne(
      manager,
      db.selectFrom('guestMessages').selectAll().where('uuid', '=', uuid).forUpdate(),
    );
  }

  findByProviderId(manager: EntityManager, provider: string, providerMessageId: string) {
    return fetchOne(
      manager,
      db
        .selectFrom('guestMessages')
        .selectAll()
        .where('provider', '=', provider)
        .where('providerMessageId', '=', providerMessageId)
        .forUpdate(),
    );
  }

  /** Sent: only a queued message; answers whether it was. */
  async markSent(
    uuid: string,
    provider: string,
    providerMessageId: string,
    at: Date,
  ): Promise<boolean> {
    const changed = await execute(
      this.dataSource.manager,
      db
        .updateTable('guestMessages')
        .set({ status: 'sent', provider, providerMessageId, error: null, updatedAt: at })
        .where('uuid', '=', uuid)
        .where('status', '=', 'queued'),
    );
    return changed > 0;
  }

  async noteError(uuid: string, provider: string, error: string, at: Date): Promise<void> {
    await execute(
      this.dataSource.manager,
      db
        .updateTable('guestMessages')
        .set({ provider, error, updatedAt: at })
        .where('uuid', '=', uuid)
        .where('status', '=', 'queued'),
    );
  }

  /** A queued message that will not leave: stopped since it was queued. */
  async markStopped(manager: EntityManager, uuid: string, at: Date): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('guestMessages')
        .set({ status: 'stopped', updatedAt: at })
        .where('uuid', '=', uuid)
        .where('status', '=', 'queued'),
    );
  }

  /** Moves the message forward only (sent → delivered → read, or to failed); answers whether it moved. */
  async move(
    manager: EntityManager,
    uuid: string,
    to: 'delivered' | 'read' | 'failed',
    change: { provider?: string; error?: string | null },
    at: Date,
  ): Promise<boolean> {
    const changed = await execute(
      manager,
      db
        .updateTable('guestMessages')
        .set({
          status: to,
          updatedAt: at,
          ...(change.provider ? { provider: change.provider } : {}),
          ...(change.error !== undefined ? { error: change.error } : {}),
        })
        .where('uuid', '=', uuid)
        .where('status', 'in', MOVES_FROM[to]),
    );
    return changed > 0;
  }

  /** One page of the business's log between two instants, newest first. */
  async list(
    businessUuid: string,
    from: Date,
    to: Date,
    page: number,
    perPage: number,
  ): Promise<{ rows: GuestMessageRow[]; total: number }> {
    const manager = this.dataSource.manager;
    const where = db
      .selectFrom('guestMessages')
      .where('businessUuid', '=', businessUuid)
      .where('createdAt', '>=', from)
      .where('createdAt', '<', to);
    const [rows, count] = await Promise.all([
      fetchAll(
        manager,
        where
          .selectAll()
          .orderBy('createdAt', 'desc')
          .orderBy('uuid', 'desc')
          .limit(perPage)
          .offset((page - 1) * perPage),
      ),
      fetchOne(manager, where.select(sql<number>`count(*)::int`.as('count'))),
    ]);
    return { rows, total: count?.count ?? 0 };
  }
}

import { Injectable } from '@nestjs/common';
import { keepPlan } from '../database/kept-plans';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { jsonb, queryBuilder, sql, Table } from '../database/query-builder';
import { writeBeforeCommit } from '../database/writes-before-commit';
import { BusinessMemberEntity, roleAllows } from '../team';
import { NotificationEntity } from './entities/notification.entity';
import { NotificationSettingEntity } from './entities/notification-setting.entity';

const TEAM_ROLES = ['manager', 'staff'] as const;

const db = queryBuilder<{
  notifications: Table<NotificationEntity, 'uuid' | 'data' | 'readAt' | 'createdAt'>;
  businessMembers: Table<BusinessMemberEntity>;
}>();

/**
 * A notification about no business, or about one of the businesses the
 * text[] parameter `businesses` holds: those whose orders the reader may
 * read now.
 */
// R72: notifications follow the membership.
const ABOUT_READABLE_BUSINESS = (businesses: string) =>
  `((n.data ->> 'business_uuid') IS NULL OR (n.data ->> 'business_uuid') = ANY(CAST(${businesses} AS text[])))`;

export interface NewNotification {
  userUuid: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

export interface SettingInput {
  deviceId: string;
  platform?: string;
  label?: string;
  enableNotification?: boolean;
  providers?: Record<string, unknown> | unknown[];
}

/**
 * A notification for its user, and for each active member of the business
 * it is about (`businessUuid`, null for none) whose role may read its
 * orders: one statement, built once (every order sends it).
 */
const insertForReaders = preparedQuery(
  ({
    userUuid,
    kind,
    title,
    body,
    businessUuid,
    ...notification
  }: NewNotification & {
    businessUuid: string | null;
  }) => {
    const readers = TEAM_ROLES.filter((role) => roleAllows(role, 'order.read'));
    const data = jsonb(notification.data);
    const owner = db.selectNoFrom([
      sql<string>`${userUuid}::uuid`.as('userUuid'),
      sql<string>`${kind}`.as('kind'),
      sql<string>`${title}`.as('title'),
      sql<string>`${body}`.as('body'),
      data.as('data'),
    ]);
    const team = db
      .selectFrom('businessMembers as m')
      .select([
        'm.userUuid',
        sql<string>`${kind}`.as('kind'),
        sql<string>`${title}`.as('title'),
        sql<string>`${body}`.as('body'),
        data.as('data'),
      ])
      .where('m.businessUuid', '=', businessUuid)
      .where('m.status', '=', 'active')
      .where('m.role', 'in', readers)
      .where('m.userUuid', 'is not', null)
      .where('m.userUuid', '<>', userUuid)
      .$narrowType<{ userUuid: string }>();
    return db
      .insertInto('notifications')
      .columns(['userUuid', 'kind', 'title', 'body', 'data'])
      .expression(owner.unionAll(team));
  },
);

/** All SQL of notifications and notification settings. */
@Injectable()
export class NotificationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * In the caller's transaction: the owner's notification comes with its
   * order or not at all. One about a business's order (`data.business_uuid`)
   * also goes to each active member of that business whose role may read
   * its orders.
   */
  async insert(manager: EntityManager, notification: NewNotification): Promise<void> {
    const businessUuid = notification.data.business_uuid;
    // Its values, and the business's members found by the business: its plan may be kept.
    await writeBeforeCommit(
      manager,
      keepPlan(
        insertForReaders({
          ...notification,
          businessUuid: typeof businessUuid === 'string' ? businessUuid : null,
        }),
      ),
    );
  }

  /**
   * A user's notifications, newest first (index notifications_user_created_idx).
   * One about a business (`data.business_uuid`) is listed only while that
   * business is among `readable`; the others always are.
   */
  async list(
    userUuid: string,
    readable: readonly string[],
    unreadOnly: boolean,
    page: number,
    perPage: number,
  ): Promise<{ rows: NotificationEntity[]; total: number }> {
    const query = this.visible(userUuid, readable);
    if (unreadOnly) query.andWhere('n.read_at IS NULL');
    const [rows, total] = await query
      .orderBy('n.created_at', 'DESC')
      .addOrderBy('n.uuid', 'DESC')
      .skip((page - 1) * perPage)
      .take(perPage)
      .getManyAndCount();
    return { rows, total };
  }

  async countUnread(userUuid: string, readable: readonly string[]): Promise<number> {
    return this.visible(userUuid, readable).andWhere('n.read_at IS NULL').getCount();
  }

  /**
   * Marks the user's unread notifications read: those named, or all, of
   * those listed to them (see list). Uuids of other users' notifications
   * match nothing, whoever sends them.
   */
  async markRead(
    userUuid: string,
    readable: readonly string[],
    uuids: readonly string[] | undefined,
  ): Promise<number> {
    const rows: Array<{ marked: number }> = await this.dataSource.manager.query(
      `WITH marked AS (
         UPDATE notifications n SET read_at = now()
         WHERE n.user_uuid = $1 AND n.read_at IS NULL AND ($2::uuid[] IS NULL OR n.uuid = ANY($2::uuid[]))
           AND ${ABOUT_READABLE_BUSINESS('$3')}
         RETURNING 1
       )
       SELECT count(*)::int AS marked FROM marked`,
      [userUuid, uuids ? [...uuids] : null, [...readable]],
    );
    return rows[0].marked;
  }

  /** The user's notifications that are about no business or about one of `readable`. */
  private visible(userUuid: string, readable: readonly string[]) {
    return this.dataSource.manager
      .createQueryBuilder(NotificationEntity, 'n')
      .where('n.user_uuid = :userUuid', { userUuid })
      .andWhere(ABOUT_READABLE_BUSINESS(':readable'), { readable: [...readable] });
  }

  /**
   * Upsert by (user, device). Fields not sent keep their stored value on an
   * update; `inserted` tells a new row from an update (xmax is 0 on a fresh row).
   */
  async upsertSetting(
    userUuid: string,
    input: SettingInput,
  ): Promise<{ setting: NotificationSettingEntity; inserted: boolean }> {
    const rows: Array<{ uuid: string; inserted: boolean }> = await this.dataSource.manager.query(
      `INSERT INTO notification_settings AS s
         (user_uuid, device_id, platform, label, enable_notification, providers)
       VALUES ($1, $2, $3, $4, COALESCE($5, true), COALESCE($6::jsonb, '{}'::jsonb))
       ON CONFLICT (user_uuid, device_id) DO UPDATE SET
         platform = COALESCE($3, s.platform),
         label = COALESCE($4, s.label),
         enable_notification = COALESCE($5, s.enable_notification),
         providers = COALESCE($6::jsonb, s.providers),
         updated_at = now()
       RETURNING s.uuid, (s.xmax = 0) AS inserted`,
      [
        userUuid,
        input.deviceId,
        input.platform ?? null,
        input.label ?? null,
        input.enableNotification ?? null,
        input.providers === undefined ? null : JSON.stringify(input.providers),
      ],
    );
    const setting = await this.dataSource.manager.findOneByOrFail(NotificationSettingEntity, {
      uuid: rows[0].uuid,
    });
    return { setting, inserted: rows[0].inserted };
  }

  async listSettings(userUuid: string): Promise<NotificationSettingEntity[]> {
    return this.dataSource.manager.find(NotificationSettingEntity, {
      where: { userUuid },
      order: { updatedAt: 'DESC', uuid: 'DESC' },
    });
  }
}

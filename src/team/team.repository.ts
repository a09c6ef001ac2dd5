import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { UserEntity } from '../account';
import { execute, fetchAll, fetchOne, queryBuilder, sql, Table } from '../database/query-builder';
import { BusinessRole } from './access';
import { BusinessMemberEntity, MemberRole } from './business-member.entity';

/**
 * The columns of a business the team reads. The table is the entity
 * module's (its entity class defines it); the entity module depends on this
 * one, so the team names only the columns it reads instead of importing it.
 */
interface BusinessColumns {
  uuid: string;
  entityType: string;
  ownedBy: string;
  metaKey: string | null;
  titleName: string | null;
}

const db = queryBuilder<{
  businessMembers: Table<BusinessMemberEntity>;
  entities: BusinessColumns;
  users: Table<UserEntity>;
}>();

/** A business as invitations need it, locked for the transaction. */
export interface LockedBusiness {
  uuid: string;
  ownedBy: string;
  metaKey: string | null;
  titleName: string | null;
}

/** A caller's active membership, with the business's names. */
export interface MembershipRow {
  uuid: string;
  businessUuid: string;
  role: MemberRole;
  metaKey: string | null;
  titleName: string | null;
}

/** What an invitation names; the rest is filled in as an open invitation. */
export type NewInvitation = Pick<
  BusinessMemberEntity,
  'businessUuid' | 'email' | 'role' | 'tokenHash' | 'invitedBy' | 'expiresAt'
>;

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505'
  );
}

/** All SQL of the team module: memberships, and the businesses' owners they are checked against. */
@Injectable()
export class TeamRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The user's role on each of these businesses (of type `businessType`)
   * where they have one: owner by `owned_by`, else their active membership's.
   */
  rolesOn(
    manager: EntityManager,
    userUuid: string,
    businessUuids: readonly string[],
    businessType: string,
  ): Promise<Array<{ businessUuid: string; role: BusinessRole }>> {
    return fetchAll(
      manager,
      db
        .selectFrom('entities as b')
        .leftJoin('businessMembers as m', (join) =>
          join
            .onRef('m.businessUuid', '=', 'b.uuid')
            .on('m.userUuid', '=', userUuid)
            .on('m.status', '=', 'active'),
        )
        .select([
          sql<string>`b.uuid::text`.as('businessUuid'),
          (eb) =>
            eb
              .case()
              .when('b.ownedBy', '=', userUuid)
              .then(sql.lit<BusinessRole>('owner'))
              .else(eb.ref('m.role'))
              .end()
              .$castTo<BusinessRole>()
              .as('role'),
        ])
        .where('b.uuid', '=', sql<string>`ANY(${[...businessUuids]}::uuid[])`)
        .where('b.entityType', '=', businessType)
        .where((eb) => eb.or([eb('b.ownedBy', '=', userUuid), eb('m.uuid', 'is not', null)])),
    );
  }

  /** Active memberships of these users with one of these roles. */
  memberBusinessesOf(
    manager: EntityManager,
    userUuids: readonly string[],
    roles: readonly MemberRole[],
  ): Promise<Array<{ userUuid: string; businessUuid: string }>> {
    return fetchAll(
      manager,
      db
        .selectFrom('businessMembers as m')
        .select([
          sql<string>`m.user_uuid::text`.as('userUuid'),
          sql<string>`m.business_uuid::text`.as('businessUuid'),
        ])
        .where('m.userUuid', '=', sql<string>`ANY(${[...userUuids]}::uuid[])`)
        .where('m.status', '=', 'active')
        .where('m.role', '=', sql<MemberRole>`ANY(${[...roles]}::text[])`),
    );
  }

  /** The businesses the user owns, and those they are an active member of with one of these roles. */
  async businessesFor(
    userUuid: string,
    businessType: string,
    roles: readonly MemberRole[],
  ): Promise<string[]> {
    const rows = await fetchAll(
      this.dataSource.manager,
      db
        .selectFrom('entities as b')
        .select(sql<string>`b.uuid::text`.as('uuid'))
        .where('b.entityType', '=', businessType)
        .where('b.ownedBy', '=', userUuid)
        .union(
          db
            .selectFrom('businessMembers as m')
            .select(sql<string>`m.business_uuid::text`.as('uuid'))
            .where('m.userUuid', '=', userUuid)
            .where('m.status', '=', 'active')
            .where('m.role', '=', sql<MemberRole>`ANY(${[...roles]}::text[])`),
        ),
    );
    return rows.map((row) => row.uuid);
  }

  /** The business row, locked so that concurrent invitations count one after another. */
  lockBusiness(
    manager: EntityManager,
    businessUuid: string,
    businessType: string,
  ): Promise<LockedBusiness | undefined> {
    return fetchOne(
      manager,
      db
        .selectFrom('entities')
        .select([
          sql<string>`uuid::text`.as('uuid'),
          sql<string>`owned_by::text`.as('ownedBy'),
          'metaKey',
          'titleName',
        ])
        .where('uuid', '=', businessUuid)
        .where('entityType', '=', businessType)
        .forUpdate(),
    );
  }

  /** The user's email address, undefined for an unknown user. */
  async emailOf(manager: EntityManager, userUuid: string): Promise<string | undefined> {
    const row = await fetchOne(
      manager,
      db.selectFrom('users').select('email').where('uuid', '=', userUuid),
    );
    return row?.email;
  }

  /** Deletes the business's invitations that ran out by `now`. */
  async deleteLapsedInvitations(
    manager: EntityManager,
    businessUuid: string,
    now: Date,
  ): Promise<void> {
    await execute(
      manager,
      db
        .deleteFrom('businessMembers')
        .where('businessUuid', '=', businessUuid)
        .where('status', '=', 'invited')
        .where('expiresAt', '<=', now),
    );
  }

  /** Members and invitations of the business. */
  async countMembers(manager: EntityManager, businessUuid: string): Promise<number> {
    const row = await fetchOne(
      manager,
      db
        .selectFrom('businessMembers')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('businessUuid', '=', businessUuid),
    );
    return Number(row?.n ?? 0);
  }

  /** The user's active memberships on businesses of `businessType` (or the one `memberUuid`), oldest first. */
  memberships(
    manager: EntityManager,
    userUuid: string,
    businessType: string,
    memberUuid?: string,
  ): Promise<MembershipRow[]> {
    let query = db
      .selectFrom('businessMembers as m')
      .innerJoin('entities as b', (join) =>
        join.onRef('b.uuid', '=', 'm.businessUuid').on('b.entityType', '=', businessType),
      )
      .select([
        sql<string>`m.uuid::text`.as('uuid'),
        sql<string>`m.business_uuid::text`.as('businessUuid'),
        'm.role',
        'b.metaKey',
        'b.titleName',
      ])
      .where('m.userUuid', '=', userUuid)
      .where('m.status', '=', 'active');
    if (memberUuid) query = query.where('m.uuid', '=', memberUuid);
    return fetchAll(manager, query.orderBy('m.acceptedAt').orderBy('m.uuid'));
  }

  /**
   * Stores an open invitation; null when the address already has one or a
   * membership on the business (the unique index decides, so racing invites
   * cannot both pass).
   */
  async insertInvitation(
    manager: EntityManager,
    invitation: NewInvitation,
  ): Promise<BusinessMemberEntity | null> {
    const repository = manager.getRepository(BusinessMemberEntity);
    try {
      return await repository.save(
        repository.create({ ...invitation, status: 'invited', userUuid: null, acceptedAt: null }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** A page of the business's members and open invitations, oldest first, and their total. */
  pageOfMembers(
    businessUuid: string,
    now: Date,
    page: number,
    perPage: number,
  ): Promise<[BusinessMemberEntity[], number]> {
    return this.dataSource
      .getRepository(BusinessMemberEntity)
      .createQueryBuilder('m')
      .where('m.businessUuid = :business', { business: businessUuid })
      .andWhere("(m.status = 'active' OR m.expiresAt > :now)", { now })
      .orderBy('m.invitedAt', 'ASC')
      .addOrderBy('m.uuid', 'ASC')
      .skip((page - 1) * perPage)
      .take(perPage)
      .getManyAndCount();
  }

  findMember(businessUuid: string, memberUuid: string): Promise<BusinessMemberEntity | null> {
    return this.dataSource
      .getRepository(BusinessMemberEntity)
      .findOne({ where: { uuid: memberUuid, businessUuid } });
  }

  async setRole(memberUuid: string, role: MemberRole): Promise<void> {
    await this.dataSource
      .getRepository(BusinessMemberEntity)
      .update({ uuid: memberUuid }, { role });
  }

  /** Removing a member or withdrawing an invitation deletes the row (its token stops working). */
  async deleteMember(memberUuid: string): Promise<void> {
    await this.dataSource.getRepository(BusinessMemberEntity).delete({ uuid: memberUuid });
  }

  /** The open invitation of this token hash, locked for the transaction; undefined when none. */
  async lockOpenInvitation(
    manager: EntityManager,
    tokenHash: string,
  ): Promise<BusinessMemberEntity | undefined> {
    const rows = await manager
      .getRepository(BusinessMemberEntity)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.tokenHash = :hash', { hash: tokenHash })
      .andWhere("m.status = 'invited'")
      .getMany();
    return rows[0];
  }

  /** The invitation becomes the user's active membership; its token is forgotten. */
  async activate(
    manager: EntityManager,
    memberUuid: string,
    userUuid: string,
    at: Date,
  ): Promise<void> {
    await manager
      .getRepository(BusinessMemberEntity)
      .update(
        { uuid: memberUuid },
        { status: 'active', userUuid, tokenHash: null, acceptedAt: at },
      );
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { preparedQuery } from '../database/prepared-query';
import { fetchAll, fetchOne, queryBuilder, sql, Table } from '../database/query-builder';
import { MetaData, UserEntity } from './user.entity';

const db = queryBuilder<{ users: Table<UserEntity> }>();

export interface NewUser {
  email: string;
  name: string;
  username: string;
  passwordHash: string;
  metaData: MetaData;
}

export interface ProfilePatch {
  name?: string;
  username?: string;
  metaData?: MetaData;
}

/** A user's address and name (every order reads its owner's). */
const contactQuery = preparedQuery(({ uuid }: { uuid: string }) =>
  db.selectFrom('users').select(['email', 'name']).where('uuid', '=', uuid),
);

/** Which unique field a write collided with, from the index that refused it. */
export type TakenField = 'email' | 'username';

const UNIQUE_INDEX_FIELD: Record<string, TakenField> = {
  users_email_lower_key: 'email',
  users_username_lower_key: 'username',
};

export function takenFieldOf(error: unknown): TakenField | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const driverError = error.driverError as { code?: string; constraint?: string };
  if (driverError.code !== '23505' || !driverError.constraint) return undefined;
  return UNIQUE_INDEX_FIELD[driverError.constraint];
}

/** All SQL on `users`. */
@Injectable()
export class AccountRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(UserEntity);
  }

  findByUuid(uuid: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.repo(manager).findOne({ where: { uuid } });
  }

  /** Emails are unique ignoring case (users_email_lower_key). */
  findByEmail(email: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.repo(manager)
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email })
      .getOne();
  }

  /** Which of these are held by another user than `exceptUuid` (case-insensitive). */
  async takenFields(
    values: { email?: string; username?: string },
    exceptUuid?: string,
  ): Promise<TakenField[]> {
    const rows: Array<{ email_taken: boolean; username_taken: boolean }> =
      await this.dataSource.query(
        `SELECT
           EXISTS (SELECT 1 FROM users WHERE $1::text IS NOT NULL AND lower(email) = lower($1)
                     AND ($3::uuid IS NULL OR uuid <> $3)) AS email_taken,
           EXISTS (SELECT 1 FROM users WHERE $2::text IS NOT NULL AND lower(username) = lower($2)
                     AND ($3::uuid IS NULL OR uuid <> $3)) AS username_taken`,
        [values.email ?? null, values.username ?? null, exceptUuid ?? null],
      );
    const taken: TakenField[] = [];
    if (rows[0].email_taken) taken.push('email');
    if (rows[0].username_taken) taken.push('username');
    return taken;
  }

  /** Throws the unique violation when a concurrent register took the email or username. */
  async insert(user: NewUser, manager?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(manager);
    return repo.save(repo.create({ ...user, emailVerifiedAt: null, tokenVersion: 0 }));
  }

  async updateProfile(uuid: string, patch: ProfilePatch): Promise<UserEntity | null> {
    const set: QueryDeepPartialEntity<UserEntity> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.username !== undefined) set.username = patch.username;
    if (patch.metaData !== undefined)
      set.metaData = patch.metaData as QueryDeepPartialEntity<UserEntity>['metaData'];
    if (Object.keys(set).length > 0) await this.repo().update({ uuid }, set);
    return this.findByUuid(uuid);
  }

  /**
   * Replaces the password and raises token_version, which voids every JWT
   * issued before. With `expectedHash`, only if the password is still
   * the one just verified (a concurrent change wins otherwise). True when
   * the row changed.
   */
  async replacePassword(
    manager: EntityManager,
    uuid: string,
    newHash: string,
    expectedHash?: string,
  ): Promise<boolean> {
    const query = manager
      .createQueryBuilder()
      .update(UserEntity)
      .set({ passwordHash: newHash, tokenVersion: () => 'token_version + 1' })
      .where('uuid = :uuid', { uuid });
    if (expectedHash !== undefined) {
      query.andWhere('password_hash = :expectedHash', { expectedHash });
    }
    const result = await query.execute();
    return (result.affected ?? 0) > 0;
  }

  /** A new hash of the same password (parameters upgraded); JWTs stay valid. */
  async rehashPassword(uuid: string, oldHash: string, newHash: string): Promise<void> {
    await this.repo().update({ uuid, passwordHash: oldHash }, { passwordHash: newHash });
  }

  /** Sets email_verified_at once; answers the stored value. */
  async markEmailVerified(manager: EntityManager, uuid: string, at: Date): Promise<Date> {
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [rows]: [Array<{ email_verified_at: Date }>, number] = await manager.query(
      `UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2), updated_at = now()
        WHERE uuid = $1 RETURNING email_verified_at`,
      [uuid, at],
    );
    return new Date(rows[0].email_verified_at);
  }

  /** Each of these users' token version (unknown users are left out); keys as the database writes uuids. */
  async tokenVersionsOf(uuids: readonly string[]): Promise<Map<string, number>> {
    const rows = await fetchAll(
      this.dataSource.manager,
      db
        .selectFrom('users')
        .select([sql<string>`uuid::text`.as('uuid'), 'tokenVersion'])
        .where('uuid', '=', sql<string>`ANY(${[...uuids]}::uuid[])`),
    );
    return new Map(rows.map((row) => [row.uuid, Number(row.tokenVersion)]));
  }

  /** A user's address and name, read inside the caller's transaction; undefined for an unknown user. */
  contactOf(
    manager: EntityManager,
    uuid: string,
  ): Promise<Pick<UserEntity, 'email' | 'name'> | undefined> {
    return fetchOne(manager, contactQuery({ uuid }));
  }
}

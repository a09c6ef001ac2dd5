import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { BusinessAction, BusinessRole, ROLE_ACTIONS, roleAllows } from './access';
import { isUuid } from '../common/uuid';
import { CoalescedReads } from '../database/coalesced-reads';
import { TeamRepository } from './team.repository';

export interface RequireAccessOptions {
  /**
   * The answer when the caller has no part in the business at all: 403 (an
   * existing record of someone else, as the owner-only routes always said)
   * or 404 (where the record is not to be revealed).
   */
  noPart?: 'forbidden' | 'not_found';
  /** The sentence of the refusal. */
  message?: string;
}

/**
 * The one answer to "may user U do action A on business B". It reads the
 * business's `owned_by` and the caller's active membership at every call,
 * never from a cache across requests, so a removed member or a lowered role
 * is refused on the very next request. Set-based: one query for any number
 * of businesses.
 */
// R49: access at every request.
@Injectable()
export class AccessPolicy {
  private readonly businessType: string;
  /** memberBusinesses outside a transaction, by action. */
  private readonly memberReads = new Map<BusinessAction, CoalescedReads<Set<string>>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly team: TeamRepository,
    @InjectConfig() config: AppConfig,
  ) {
    this.businessType = `${config.namespace}_business`;
  }

  /** The caller's role on each of these businesses where they have one. */
  async rolesOn(
    userUuid: string,
    businessUuids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, BusinessRole>> {
    const ids = [
      ...new Set(businessUuids.filter((id) => isUuid(id)).map((id) => id.toLowerCase())),
    ];
    const roles = new Map<string, BusinessRole>();
    if (ids.length === 0 || !isUuid(userUuid)) return roles;
    const rows = await this.team.rolesOn(manager, userUuid, ids, this.businessType);
    for (const row of rows) roles.set(row.businessUuid, row.role);
    return roles;
  }

  /** Which of these businesses the user may do `action` on. */
  async allowed(
    user: AuthUser,
    action: BusinessAction,
    businessUuids: readonly string[],
    manager?: EntityManager,
  ): Promise<Set<string>> {
    const roles = await this.rolesOn(user.uuid, businessUuids, manager);
    return new Set([...roles].filter(([, role]) => roleAllows(role, action)).map(([id]) => id));
  }

  /** The caller's role on one business, or undefined when they have no part in it. */
  async roleOn(
    user: AuthUser,
    businessUuid: string,
    manager?: EntityManager,
  ): Promise<BusinessRole | undefined> {
    return (await this.rolesOn(user.uuid, [businessUuid], manager)).get(businessUuid.toLowerCase());
  }

  /**
   * Refuses unless the user may do `action` on the business, and answers
   * their role there: 403 FORBIDDEN for a role that lacks the action; for
   * a caller with no part in it, as `options.noPart` says (403 by default).
   */
  async requireAccess(
    user: AuthUser,
    action: BusinessAction,
    businessUuid: string,
    options: RequireAccessOptions = {},
    manager?: EntityManager,
  ): Promise<BusinessRole> {
    const role = await this.roleOn(user, businessUuid, manager);
    return this.check(role, action, options);
  }

  /** The same decision for a role already read in this request. */
  check(
    role: BusinessRole | undefined,
    action: BusinessAction,
    options: RequireAccessOptions = {},
  ): BusinessRole {
    if (role === undefined) {
      if (options.noPart === 'not_found') throw ApiError.notFound(options.message);
      throw ApiError.forbidden(options.message ?? 'This record belongs to another user.');
    }
    if (!ROLE_ACTIONS[role].has(action)) {
      throw ApiError.forbidden(`Your role (${role}) on this business does not allow this.`);
    }
    return role;
  }

  /**
   * For each of these users, the businesses they are an active member of
   * with a role that allows `action` (one query for all of them).
   */
  async memberBusinessesOf(
    userUuids: readonly string[],
    action: BusinessAction,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Set<string>>> {
    const users = [...new Set(userUuids.filter((id) => isUuid(id)))];
    const roles = (['manager', 'staff'] as const).filter((role) => roleAllows(role, action));
    const found = new Map<string, Set<string>>();
    if (users.length === 0 || roles.length === 0) return found;
    const rows = await this.team.memberBusinessesOf(manager, users, roles);
    for (const row of rows) {
      let businesses = found.get(row.userUuid);
      if (!businesses) found.set(row.userUuid, (businesses = new Set()));
      businesses.add(row.businessUuid);
    }
    return found;
  }

  /**
   * Every business the user may do `action` on now: those they own and those
   * whose active member they are with a role that allows it. One statement,
   * read at each call (a removed member loses the business at once).
   */
  async businessesFor(userUuid: string, action: BusinessAction): Promise<string[]> {
    if (!isUuid(userUuid)) return [];
    const roles = (['manager', 'staff'] as const).filter((role) => roleAllows(role, action));
    return this.team.businessesFor(userUuid.toLowerCase(), this.businessType, roles);
  }

  /**
   * The businesses whose owner the user is not but whose active member they
   * are with a role that allows `action` (their own businesses are found
   * through `owned_by`). Outside a transaction, the requests that ask at the
   * same moment share one statement, each still sent after it asked.
   */
  async memberBusinesses(
    userUuid: string,
    action: BusinessAction,
    manager?: EntityManager,
  ): Promise<string[]> {
    if (!isUuid(userUuid)) return [];
    const user = userUuid.toLowerCase();
    if (manager) {
      const found = await this.memberBusinessesOf([user], action, manager);
      return [...(found.get(user) ?? [])];
    }
    let reads = this.memberReads.get(action);
    if (!reads) {
      reads = new CoalescedReads((users) => this.memberBusinessesOf(users, action));
      this.memberReads.set(action, reads);
    }
    return [...((await reads.read(user)) ?? [])];
  }
}

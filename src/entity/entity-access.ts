import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { ApiError } from '../http/api-error';
import { isUuid } from '../common/uuid';
import { AccessPolicy, BusinessAction, BusinessRole } from '../team';
import { isPrivateSetting, publicExtraData } from './domain/private-settings';
import { changedOnly } from './entity-changes';
import { EntityRecord } from './entity-record.entity';
import { EntityValues } from './entity-sql';
import { EntityType } from './entity-types';
import { EntityRepository } from './entity.repository';
import { Reader } from './domain/readable-fields';

/**
 * Who may act on a business's records, as the entity routes ask it: the
 * record's business is found (itself, a menu's parent, an item's menu's
 * parent) and the access policy decides with a named action.
 */
// R16: visibility.
@Injectable()
export class EntityAccess {
  constructor(
    private readonly repository: EntityRepository,
    private readonly access: AccessPolicy,
  ) {}

  /** The businesses the user works for, whose records they may read. */
  memberBusinesses(user: AuthUser): Promise<string[]> {
    return this.access.memberBusinesses(user.uuid, 'business.read');
  }

  /**
   * The record and the caller's role on its business: 404 when there is no
   * such record of this type, 403 when the caller has no part in its business.
   */
  async recordWithRole(
    user: AuthUser,
    type: EntityType,
    uuid: string,
  ): Promise<{ record: EntityRecord; role: BusinessRole }> {
    const record = isUuid(uuid) ? await this.repository.findOfType(type, uuid) : null;
    if (!record) throw ApiError.notFound(`${type.label} not found.`);
    const role = await this.roleOnBusinessOf(user, record.uuid);
    return {
      record,
      role: this.access.check(role, 'business.read', {
        message: `This ${type.label.toLowerCase()} belongs to another user.`,
      }),
    };
  }

  /** The record when the caller may do `action` on its business (404 missing, 403 otherwise). */
  async record(
    user: AuthUser,
    type: EntityType,
    uuid: string,
    action: BusinessAction,
  ): Promise<EntityRecord> {
    const { record, role } = await this.recordWithRole(user, type, uuid);
    this.access.check(role, action);
    return record;
  }

  /** Trashing or restoring: a menu or item is menu work, the business is the owner's. */
  trashAction(type: EntityType): BusinessAction {
    return type.parent ? 'menu.write' : 'business.trash';
  }

  /**
   * Refuses an update the role does not allow: changing only
   * `extra_data.accepting_orders` of a business, or only `extra_data.available`
   * of an item and its options, is a smaller action than any other change.
   */
  checkUpdate(
    role: BusinessRole,
    type: EntityType,
    current: EntityRecord,
    values: EntityValues,
  ): void {
    let action: BusinessAction = 'menu.write';
    if (!type.parent) {
      action = changedOnly(current, values, 'accepting_orders')
        ? 'business.accepting_orders'
        : 'business.update';
    } else if (type.suffix === 'business_menu_item' && changedOnly(current, values, 'available')) {
      action = 'item.availability';
    }
    this.access.check(role, action);
  }

  /**
   * A member never reads the owner's private settings (answers leave them
   * out), so a member's write keeps them as stored, whatever the body says.
   */
  keepPrivateSettings(role: BusinessRole, current: EntityRecord, values: EntityValues): void {
    if (role === 'owner') return;
    const kept = Object.entries(current.extraData).filter(([key]) => isPrivateSetting(key));
    values.extraData = { ...publicExtraData(values.extraData), ...Object.fromEntries(kept) };
  }

  /**
   * The reader every record of a list is read as, at least (see
   * readable-fields): the caller's own records (`owned_by` = the caller)
   * are the owner's; the children of one parent (`parent_entity_uuid`) are
   * those of one business, read as the caller stands to it; any other list
   * may hold other users' public records.
   */
  async listReader(
    user: AuthUser | undefined,
    ownedBy: string | undefined,
    parentUuid: string | undefined,
  ): Promise<Reader> {
    if (!user) return 'public';
    if (ownedBy !== undefined) {
      return ownedBy.toLowerCase() === user.uuid.toLowerCase() ? 'owner' : 'public';
    }
    if (parentUuid === undefined) return 'public';
    const role = await this.roleOnBusinessOf(user, parentUuid.toLowerCase());
    if (role === undefined) return 'public';
    return role === 'owner' ? 'owner' : 'member';
  }

  /** A new parent (menu or business) must be one whose menus the caller may write (403). */
  async checkParent(user: AuthUser, parentUuid: string, what: string): Promise<void> {
    const role = await this.roleOnBusinessOf(user, parentUuid);
    this.access.check(role, 'menu.write', {
      message: `The parent ${what} belongs to another user.`,
    });
  }

  private async roleOnBusinessOf(
    user: AuthUser,
    recordUuid: string,
  ): Promise<BusinessRole | undefined> {
    const business = await this.repository.businessUuidOf(recordUuid);
    return business ? this.access.roleOn(user, business) : undefined;
  }
}

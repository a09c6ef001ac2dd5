import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { BusinessAction } from '../team';
import { EntityBodyDto } from './dto/entity-body.dto';
import {
  EntityResponseDto,
  forReader,
  toEntityResponse,
  toPublicEntityResponse,
} from './dto/entity-response.dto';
import { RetrieveByMetaKeyQueryDto } from './dto/list-entities-query.dto';
import { EntityRecord } from './entity-record.entity';
import { isUuid } from '../common/uuid';
import { EntityValues, metaKeyConflict } from './entity-sql';
import { EntityRepository } from './entity.repository';
import { Reader } from './domain/readable-fields';
import { EntityType, EntityTypeRegistry } from './entity-types';
import { EntityAccess } from './entity-access';
import { present, resolveValues } from './entity-values';
import { FeaturedUrlChecks } from './featured-url-check';
import { OrderableMenu } from './orderable-menu';
import { MenuZones } from './menu-zones';
import { OrderableMenuRepository } from './orderable-menu.repository';
import { StorefrontCache } from './storefront-cache';
import { keepStoredAvailability } from './domain/availability';
import { Transaction } from '../database/event-bus';
import { KitchenSetting, readKitchen } from './domain/kitchen-setting';
import { readBusinessView } from './extra-data-views';

type EntityAnswer = ApiResult<EntityResponseDto>;

/** A record as the one who just wrote it sees it: its owner, or a member of its business. */
function writerView(record: EntityRecord, user: AuthUser): EntityResponseDto {
  return forReader(toEntityResponse(record), record.ownedBy === user.uuid ? 'owner' : 'member');
}

/**
 * The rules for every entity type: who may act (the access policy: the
 * business's owner, or a member whose role allows the action), parents,
 * extra_data per type, request_id idempotency, meta_key uniqueness,
 * visibility (owner, member or public). A member's write keeps `owned_by`,
 * the business owner's; `updated_by` names who wrote.
 */
@Injectable()
export class EntityService {
  constructor(
    private readonly types: EntityTypeRegistry,
    private readonly repository: EntityRepository,
    private readonly orderableMenus: OrderableMenuRepository,
    private readonly featuredUrls: FeaturedUrlChecks,
    private readonly storefrontCache: StorefrontCache,
    private readonly access: EntityAccess,
    private readonly menuZones: MenuZones,
  ) {}

  async createEntity(user: AuthUser, typeName: string, body: EntityBodyDto): Promise<EntityAnswer> {
    const type = this.types.require(typeName);
    this.assertOwnedByCaller(user, body);
    const values = resolveValues(type, body, undefined);
    values.extraData = keepStoredAvailability(values.extraData, undefined);
    // A business is the caller's own; a menu or item belongs to the owner of its business.
    const parent =
      values.parentEntityUuid === null
        ? null
        : await this.repository.findParent(values.parentEntityUuid);
    const ownedBy = parent?.ownedBy ?? user.uuid;
    // A member's create is checked first, so a request_id never answers a record they may not write.
    if (ownedBy !== user.uuid) await this.checkParent(user, type, values, undefined);
    if (values.requestId !== null) {
      const first = await this.repository.findByRequestId(type, ownedBy, values.requestId);
      if (first) return this.replay(type, first, user);
    }
    if (ownedBy === user.uuid) await this.checkParent(user, type, values, undefined);
    await this.checkFeaturedUrl(user, type, values, undefined);
    let record: EntityRecord | null;
    try {
      record = await this.repository.insert(type, ownedBy, user.uuid, values);
    } catch (error) {
      throw metaKeyConflict(error);
    }
    if (!record) {
      // A create with the same request_id won the race: answer with its record.
      const first = await this.repository.findByRequestId(type, ownedBy, values.requestId!);
      if (!first) throw new Error('request_id conflict without a stored record');
      return this.replay(type, first, user);
    }
    this.storefrontCache.invalidate([record.uuid, record.parentEntityUuid]);
    return new ApiResult(writerView(record, user), `${type.label} created`, undefined, 201);
  }

  /**
   * The caller's own record or one of a business they work for (even in the
   * trash), or a public one; 404 otherwise.
   */
  async getEntity(
    user: AuthUser | undefined,
    typeName: string,
    uuid: string,
  ): Promise<EntityAnswer> {
    const type = this.types.require(typeName);
    if (!isUuid(uuid)) throw ApiError.notFound(`${type.label} not found.`);
    const memberOf = user ? await this.access.memberBusinesses(user) : [];
    const record = await this.repository.findVisible(type, uuid, user?.uuid, memberOf);
    if (!record) throw ApiError.notFound(`${type.label} not found.`);
    let reader: Reader = record.ownedBy === user?.uuid ? 'owner' : 'public';
    if (reader === 'public' && memberOf.length) {
      const business = await this.repository.businessUuidOf(record.uuid);
      if (business && memberOf.includes(business)) reader = 'member';
    }
    return new ApiResult(forReader(toEntityResponse(record), reader), `${type.label} found`);
  }

  /**
   * One public record by meta_key, ignoring case. A menu's meta_key is
   * unique only within its business, so a match of several is 409 and
   * parent_entity_uuid narrows it.
   */
  async retrieveEntityByMetaKey(
    typeName: string,
    metaKey: string,
    query: RetrieveByMetaKeyQueryDto,
  ): Promise<EntityAnswer> {
    const type = this.types.require(typeName);
    const found = await this.repository.findPublicByMetaKey(
      type,
      metaKey,
      query.parent_entity_uuid,
      2,
    );
    if (found.length === 0) throw ApiError.notFound(`${type.label} not found.`);
    if (found.length > 1) {
      throw ApiError.conflict('This meta_key names more than one record.', [
        {
          field: 'parent_entity_uuid',
          message: 'Send parent_entity_uuid to say which parent the record belongs to.',
        },
      ]);
    }
    // A public read: what only the owner or the team may read is left out, whoever asks.
    return new ApiResult(toPublicEntityResponse(found[0]), `${type.label} found`);
  }

  /** PUT: fields sent replace the stored ones; extra_data is replaced whole. */
  async updateEntity(
    user: AuthUser,
    typeName: string,
    uuid: string,
    body: EntityBodyDto,
  ): Promise<EntityAnswer> {
    const type = this.types.require(typeName);
    const { record: current, role } = await this.access.recordWithRole(user, type, uuid);
    this.assertOwnedByCaller(user, body);
    if (current.trashedAt) {
      throw ApiError.unprocessable(
        `This ${type.label.toLowerCase()} is in the trash; restore it first.`,
      );
    }
    const values = resolveValues(type, body, current);
    this.access.keepPrivateSettings(role, current, values);
    // R93: the kitchen's switch changes through its own route only.
    values.extraData = keepStoredAvailability(values.extraData, current.extraData);
    this.access.checkUpdate(role, type, current, values);
    await this.checkParent(user, type, values, current);
    await this.checkFeaturedUrl(user, type, values, current);
    let record: EntityRecord | null;
    try {
      record = await this.repository.update(type, current.uuid, current.ownedBy, user.uuid, values);
    } catch (error) {
      throw metaKeyConflict(error);
    }
    if (!record) {
      throw ApiError.unprocessable(
        `This ${type.label.toLowerCase()} is in the trash; restore it first.`,
      );
    }
    this.storefrontCache.invalidate([
      record.uuid,
      record.parentEntityUuid,
      current.parentEntityUuid,
    ]);
    const reader = role === 'owner' ? 'owner' : 'member';
    return new ApiResult(forReader(toEntityResponse(record), reader), `${type.label} updated`);
  }

  /**
   * Moves the caller's record to the trash; trashing one already there
   * answers it again. Its children stay as they are but leave public reads
   * with it.
   */
  async trashEntity(user: AuthUser, typeName: string, uuid: string): Promise<EntityAnswer> {
    const type = this.types.require(typeName);
    const current = await this.access.record(user, type, uuid, this.access.trashAction(type));
    const record = current.trashedAt
      ? current
      : ((await this.repository.trash(type, current.uuid, current.ownedBy, user.uuid)) ??
        (await this.repository.findOfType(type, current.uuid)));
    if (!record) throw ApiError.notFound(`${type.label} not found.`);
    this.storefrontCache.invalidate([record.uuid, record.parentEntityUuid]);
    return new ApiResult(writerView(record, user), `${type.label} moved to the trash`);
  }

  /** Takes the caller's record out of the trash (409 if its meta_key was taken meanwhile). */
  async restoreEntity(user: AuthUser, typeName: string, uuid: string): Promise<EntityAnswer> {
    const type = this.types.require(typeName);
    const current = await this.access.record(user, type, uuid, this.access.trashAction(type));
    let record: EntityRecord | null = current;
    if (current.trashedAt) {
      try {
        record =
          (await this.repository.restore(type, current.uuid, current.ownedBy, user.uuid)) ??
          (await this.repository.findOfType(type, current.uuid));
      } catch (error) {
        throw metaKeyConflict(error);
      }
    }
    if (!record) throw ApiError.notFound(`${type.label} not found.`);
    this.storefrontCache.invalidate([record.uuid, record.parentEntityUuid]);
    return new ApiResult(writerView(record, user), `${type.label} restored`);
  }

  /**
   * For the orders module: a public menu (enabled, not trashed) whose business is
   * public, and those of `itemUuids` that are public items of it, in the order asked
   * (others are absent). Null when the menu or its business is not public. Runs on
   * `manager` when given. The menu's `extra_data` comes without its delivery zones,
   * prepared in `deliveryZones` (held per menu version, see MenuZones). With
   * `deliveryAreas` false, `hasDeliveryItems` is not read (undefined): that reads
   * every item of the menu, which an order that is no delivery never needs.
   */
  async findOrderableMenu(
    menuUuid: string,
    itemUuids: string[],
    manager?: EntityManager,
    { deliveryAreas = true }: { deliveryAreas?: boolean } = {},
  ): Promise<OrderableMenu | null> {
    if (!isUuid(menuUuid)) return null;
    const uuid = menuUuid.toLowerCase();
    const wanted = [...new Set(itemUuids.filter(isUuid).map((id) => id.toLowerCase()))];
    const held = this.menuZones.lookup(uuid);
    const found = await this.orderableMenus.findOrderable(
      this.types.of('business_menu'),
      this.types.of('business_menu_item'),
      uuid,
      wanted,
      manager,
      held?.version ?? null,
      deliveryAreas,
    );
    if (!found) return null;
    found.items.sort((a, b) => wanted.indexOf(a.uuid) - wanted.indexOf(b.uuid));
    const { extraData, zones } = this.menuZones.resolve(uuid, found, held);
    return {
      menu: Object.assign(found.menu, { extraData }),
      business: found.business,
      items: found.items,
      hasDeliveryItems: found.hasDeliveryItems,
      deliveryZones: zones,
    };
  }

  /** For other modules: a live business record by uuid (not in the trash), or null. */
  async liveBusiness(businessUuid: string, manager?: EntityManager): Promise<EntityRecord | null> {
    if (!isUuid(businessUuid)) return null;
    const record = await this.repository.findOfType(
      this.types.of('business'),
      businessUuid.toLowerCase(),
      manager,
    );
    return record && !record.trashedAt ? record : null;
  }

  /**
   * For the availability route: sets these keys of a live business's
   * `extra_data` (the others stay) in the caller's transaction, which holds
   * the business's row until commit; the storefront's stored document goes
   * stale with the write and every process's cache drops it at commit.
   * Null when there is no live business.
   */
  async writeBusinessSettings(
    tx: Transaction,
    businessUuid: string,
    settings: Record<string, unknown>,
    updatedBy: string,
  ): Promise<EntityRecord | null> {
    const record = await this.repository.mergeExtraData(
      tx.manager,
      this.types.of('business'),
      businessUuid,
      settings,
      updatedBy,
    );
    if (record) tx.afterCommit(() => this.storefrontCache.invalidate([record.uuid]));
    return record;
  }

  /**
   * For other modules: the kitchen of a business (its stations) and its time
   * zone (of its opening hours; UTC without them), read on `manager` when
   * given (the transaction of an order's acceptance); the one-station
   * kitchen when the business has none or does not exist.
   */
  async kitchenOf(
    businessUuid: string,
    manager?: EntityManager,
  ): Promise<KitchenSetting & { timeZone: string }> {
    const record = isUuid(businessUuid)
      ? await this.repository.findOfType(
          this.types.of('business'),
          businessUuid.toLowerCase(),
          manager,
        )
      : null;
    const data = record?.extraData;
    const hours = readBusinessView(data).openingHours;
    const zone = typeof hours?.timezone === 'string' ? hours.timezone : 'UTC';
    return { ...readKitchen(data?.kitchen), timeZone: zone };
  }

  /** For other modules: which of these uuids name menus of the business (in the trash or not). */
  async menusOfBusiness(businessUuid: string, uuids: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(uuids.filter(isUuid).map((uuid) => uuid.toLowerCase()))];
    if (!isUuid(businessUuid) || wanted.length === 0) return new Set();
    return new Set(
      await this.repository.menusOf(
        this.types.of('business_menu'),
        businessUuid.toLowerCase(),
        wanted,
      ),
    );
  }

  /**
   * For other modules: 404 when there is no such live business, 403 when the
   * caller has no part in it or a role that does not allow `action`.
   */
  async assertBusinessAccess(user: AuthUser, uuid: string, action: BusinessAction): Promise<void> {
    const record = await this.access.record(user, this.types.of('business'), uuid, action);
    if (record.trashedAt) throw ApiError.notFound('Business not found.');
  }

  private replay(type: EntityType, record: EntityRecord, user: AuthUser): EntityAnswer {
    return new ApiResult(writerView(record, user), `${type.label} already created`, undefined, 200);
  }

  /** `owned_by` may be left out; anything but the caller is 403 (IDOR). */
  private assertOwnedByCaller(user: AuthUser, body: EntityBodyDto): void {
    if (present(body.owned_by) && body.owned_by.toLowerCase() !== user.uuid.toLowerCase()) {
      throw ApiError.forbidden('owned_by must be the logged-in user.');
    }
  }

  /** The parent: 404 missing (or trashed), 403 someone else's, 400 of the wrong type. */
  private async checkParent(
    user: AuthUser,
    type: EntityType,
    values: EntityValues,
    current: EntityRecord | undefined,
  ): Promise<void> {
    const expected = type.parent;
    const uuid = values.parentEntityUuid;
    if (!expected || uuid === null) return;
    if (current && current.parentEntityUuid === uuid) return;
    const parent = await this.repository.findParent(uuid);
    const what = expected.label.toLowerCase();
    if (!parent || parent.trashedAt) throw ApiError.notFound(`The parent ${what} does not exist.`);
    await this.access.checkParent(user, parent.uuid, what);
    if (parent.entityType !== expected.name) {
      throw ApiError.validation([
        {
          field: 'parent_entity_uuid',
          message: `parent_entity_uuid names a ${parent.entityType}, not a ${expected.name}.`,
        },
      ]);
    }
  }

  /**
   * The single place where a new entity_featured_url is checked before it is
   * stored (see FeaturedUrlChecks): on create with a URL, and on update to a
   * different one.
   */
  private async checkFeaturedUrl(
    user: AuthUser,
    type: EntityType,
    values: EntityValues,
    current: EntityRecord | undefined,
  ): Promise<void> {
    const url = values.entityFeaturedUrl;
    if (!url || url === current?.entityFeaturedUrl) return;
    await this.featuredUrls.run({
      url,
      ownerUuid: user.uuid,
      entityType: type.name,
      recordUuid: current?.uuid ?? null,
    });
  }
}

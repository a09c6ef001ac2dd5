import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { AccessPolicy, BusinessRole } from '../team';
import { ApiError, ErrorDetail } from '../http/api-error';
import { refuseUnstorableText } from '../http/input-rules';
import { createValidationPipe } from '../http/validation';
import { EntityBodyDto } from './dto/entity-body.dto';
import { forReader, toEntityResponse } from './dto/entity-response.dto';
import { EntityAccess } from './entity-access';
import { EntityRecord } from './entity-record.entity';
import { EntityTypeRegistry } from './entity-types';
import { resolveValues } from './entity-values';
import {
  exportCsv,
  exportDocument,
  externalIdOf,
  ImportError,
  MAX_IMPORT_ITEMS,
} from './menu-transfer';
import { importErrorsOf, ImportItem, ParsedImport, sameDocument } from './menu-import';
import { ImportWrite, MenuTransferRepository } from './menu-transfer.repository';
import { StorefrontCache } from './storefront-cache';
import { EntityValues } from './entity-sql';

/** What an import did, or would do with `dry_run`. */
export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  trashed: number;
  errors: ImportError[];
}

export interface ImportOptions {
  dryRun: boolean;
  prune: boolean;
}

/** Thrown inside the import's transaction to roll it back with its errors. */
class ImportFailed extends Error {
  constructor(readonly errors: ImportError[]) {
    super('import failed');
  }
}

/**
 * A menu's export (JSON and CSV) and import. Both are the owner's and the
 * managers' (the menu.write action, R122); the import is all or nothing, in
 * one transaction that holds the menu's row, and each item goes through the
 * rules of the entity routes as if it were sent alone.
 */
@Injectable()
export class MenuTransferService {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly dataSource: DataSource,
    private readonly types: EntityTypeRegistry,
    private readonly access: EntityAccess,
    private readonly policy: AccessPolicy,
    private readonly repository: MenuTransferRepository,
    private readonly storefrontCache: StorefrontCache,
  ) {}

  async exportMenuJson(user: AuthUser, menuUuid: string): Promise<Record<string, unknown>> {
    const { menu, items, reader } = await this.readForExport(user, menuUuid);
    return exportDocument(
      menu,
      items.map((record) => ({ record, view: forReader(toEntityResponse(record), reader) })),
    );
  }

  async exportMenuCsv(user: AuthUser, menuUuid: string): Promise<string> {
    const { menu, items } = await this.readForExport(user, menuUuid);
    return exportCsv(menu, items);
  }

  // R122: export and import are the owner's and the managers'.
  private async readForExport(user: AuthUser, menuUuid: string) {
    const menuType = this.types.of('business_menu');
    const { record, role } = await this.access.recordWithRole(user, menuType, menuUuid);
    this.policy.check(role, 'menu.write');
    if (record.trashedAt) throw ApiError.notFound('Menu not found.');
    const reader = role === 'owner' ? 'owner' : 'member';
    const items = await this.repository.liveItems(
      this.dataSource.manager,
      this.types.of('business_menu_item'),
      record.uuid,
    );
    return { menu: forReader(toEntityResponse(record), reader), items, reader } as const;
  }

  /**
   * Imports parsed rows into a menu (R121): rows match the menu's live
   * items by external_id only; with `prune` the live items the file does not
   * name go to the trash. Any fault: 422 IMPORT_FAILED listing them all, and
   * nothing written; `dry_run` writes nothing in any case.
   */
  async importMenu(
    user: AuthUser,
    menuUuid: string,
    parsed: ParsedImport,
    options: ImportOptions,
  ): Promise<ImportCounts> {
    const menuType = this.types.of('business_menu');
    const itemType = this.types.of('business_menu_item');
    const { record: menu, role } = await this.access.recordWithRole(user, menuType, menuUuid);
    this.policy.check(role, 'menu.write');
    if (menu.trashedAt) throw ApiError.notFound('Menu not found.');
    if (parsed.items.length > MAX_IMPORT_ITEMS) {
      throw importFailed([
        {
          row: null,
          column: null,
          message: `An import holds at most ${MAX_IMPORT_ITEMS} items; this one has ${parsed.items.length}.`,
        },
      ]);
    }
    let counts: ImportCounts;
    let touched: string[] = [];
    try {
      ({ counts, touched } = await this.dataSource.transaction(async (manager) => {
        if (!(await this.repository.lockMenu(manager, menuType, menu.uuid))) {
          throw ApiError.notFound('Menu not found.');
        }
        const existing = await this.repository.liveItems(manager, itemType, menu.uuid);
        const plan = await this.plan(menu, role, user.uuid, parsed, existing, options.prune);
        if (plan.errors.length > 0) throw new ImportFailed(plan.errors);
        if (!options.dryRun) {
          await this.repository.insertItems(manager, itemType, plan.creates);
          for (const [uuid, write] of plan.updates) {
            await this.repository.updateItem(manager, uuid, write);
          }
          await this.repository.trashItems(manager, plan.trashes, user.uuid);
        }
        return {
          counts: {
            created: plan.creates.length,
            updated: plan.updates.length,
            unchanged: plan.unchanged,
            trashed: plan.trashes.length,
            errors: [],
          },
          touched: [...plan.updates.map(([uuid]) => uuid), ...plan.trashes],
        };
      }));
    } catch (error) {
      if (error instanceof ImportFailed) throw importFailed(error.errors);
      throw error;
    }
    if (!options.dryRun) this.storefrontCache.invalidate([menu.uuid, ...touched]);
    return counts;
  }

  private async plan(
    menu: EntityRecord,
    role: BusinessRole,
    updatedBy: string,
    parsed: ParsedImport,
    existing: EntityRecord[],
    prune: boolean,
  ) {
    const errors = [...parsed.errors];
    const byExternalId = new Map(existing.map((item) => [externalIdOf(item), item]));
    const creates: ImportWrite[] = [];
    const updates: Array<[string, ImportWrite]> = [];
    let unchanged = 0;
    const named = new Set<string>();
    for (const item of parsed.items) {
      named.add(item.externalId);
      const current = byExternalId.get(item.externalId);
      const values = await this.valuesOf(item, current, menu, errors);
      if (!values) continue;
      if (current) {
        this.access.keepPrivateSettings(role, current, values);
        if (unchangedRecord(current, values)) unchanged++;
        else updates.push([current.uuid, { values, ownedBy: current.ownedBy, updatedBy }]);
      } else {
        creates.push({ values, ownedBy: menu.ownedBy, updatedBy });
      }
    }
    const trashes = prune
      ? existing.filter((item) => !named.has(externalIdOf(item))).map((item) => item.uuid)
      : [];
    return { errors, creates, updates, unchanged, trashes };
  }

  /**
   * The values of one row as the entity routes would store them (the body's
   * field rules, then the type's), under this menu; undefined with its
   * faults added to `errors`.
   */
  private async valuesOf(
    item: ImportItem,
    current: EntityRecord | undefined,
    menu: EntityRecord,
    errors: ImportError[],
  ): Promise<EntityValues | undefined> {
    const itemType = this.types.of('business_menu_item');
    try {
      const sent = {
        ...item.body(current),
        parent_entity_type: itemType.parent?.name,
        parent_entity_uuid: menu.uuid,
      };
      refuseUnstorableText(sent, '');
      const body = (await this.validation.transform(sent, {
        type: 'body',
        metatype: EntityBodyDto,
        data: '',
      })) as EntityBodyDto;
      return resolveValues(itemType, body, current);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'VALIDATION_FAILED') {
        const details: ErrorDetail[] = error.details.length
          ? error.details
          : [{ message: error.message }];
        errors.push(...importErrorsOf(item, details));
        return undefined;
      }
      throw error;
    }
  }
}

/** Whether writing `values` would leave the item as it is. */
function unchangedRecord(current: EntityRecord, values: EntityValues): boolean {
  return (
    current.titleName === values.titleName &&
    current.description === values.description &&
    current.status === values.status &&
    current.slug === values.slug &&
    current.metaKey === values.metaKey &&
    current.metaValue === values.metaValue &&
    current.entityFeaturedUrl === values.entityFeaturedUrl &&
    current.parentEntityUuid === values.parentEntityUuid &&
    sameDocument(current.extraData, values.extraData)
  );
}

// R121: an import with any fault writes nothing and lists every fault.
function importFailed(errors: ImportError[]): ApiError {
  return new ApiError(
    422,
    'IMPORT_FAILED',
    `The import has ${errors.length} fault${errors.length === 1 ? '' : 's'}; nothing was written.`,
    // By line of the file; a JSON file's faults keep the order they were found in.
    [...errors]
      .sort((a, b) => (a.row ?? Infinity) - (b.row ?? Infinity))
      .map((error) => ({ ...error })),
  );
}

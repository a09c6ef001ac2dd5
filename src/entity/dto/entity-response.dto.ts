import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Reader, readableView } from '../domain/readable-fields';
import { EntityRecord } from '../entity-record.entity';
import { ENTITY_STATUSES } from './entity-body.dto';

/** A business, menu or menu item: the common record fields and its extra_data. */
export class EntityResponseDto {
  uuid!: string;
  /** `{ns}_business`, `{ns}_business_menu` or `{ns}_business_menu_item`. */
  entity_type!: string;
  request_id!: string | null;
  slug!: string | null;
  meta_key!: string | null;
  meta_value!: string | null;
  title_name!: string | null;
  description!: string | null;
  entity_featured_url!: string | null;

  @ApiProperty({ enum: ENTITY_STATUSES })
  status!: string;

  /** The owner's user uuid. */
  owned_by!: string;

  /**
   * Who last created or changed the record: the owner or a member of the
   * business. Only the owner and the business's team read it; it is null
   * in every other answer (the storefront, public lists and reads).
   */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  updated_by!: string | null;

  parent_entity_type!: string | null;
  parent_entity_uuid!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  extra_data!: Record<string, unknown>;

  /** Set while the record is in the trash (only its owner sees it then). */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  trashed_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export function toEntityResponse(record: EntityRecord): EntityResponseDto {
  return {
    uuid: record.uuid,
    entity_type: record.entityType,
    request_id: record.requestId,
    slug: record.slug,
    meta_key: record.metaKey,
    meta_value: record.metaValue,
    title_name: record.titleName,
    description: record.description,
    entity_featured_url: record.entityFeaturedUrl,
    status: record.status,
    owned_by: record.ownedBy,
    updated_by: record.updatedBy,
    parent_entity_type: record.parentEntityType,
    parent_entity_uuid: record.parentEntityUuid,
    extra_data: record.extraData,
    trashed_at: record.trashedAt ? record.trashedAt.toISOString() : null,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

/** The record as anyone may see it: the storefront, a read by meta_key, a public list. */
export function toPublicEntityResponse(record: EntityRecord): EntityResponseDto {
  return readableView('public', toEntityResponse(record));
}

/** An answer record as this reader may see it (see readableView). */
export function forReader(record: EntityResponseDto, reader: Reader): EntityResponseDto {
  return readableView(reader, record);
}

/** The kitchen's switch: open, busy or paused. */
export class AvailabilityDto {
  @ApiProperty({ enum: ['open', 'busy', 'paused'], example: 'busy' })
  mode!: 'open' | 'busy' | 'paused';

  /** The minutes a busy kitchen adds to every new order's prep time; null unless busy. */
  @ApiProperty({ type: 'integer', nullable: true, minimum: 5, maximum: 180, example: 20 })
  extra_prep_minutes!: number | null;

  /** When the mode returns to `open` by itself; null: until changed. */
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  until!: string | null;
}

/** An item of the storefront: the record, and what remains today when it counts its portions. */
export class StorefrontItemResponseDto extends EntityResponseDto {
  @ApiPropertyOptional({
    example: 12,
    description:
      'Only on an item with `extra_data.stock`: the portions left today (the business’s local ' +
      'day; for `count` stock, what is left). At 0 the item reads `extra_data.available: false`.',
  })
  stock_remaining?: number;
}

/** The storefront in one call: business, menu and its items. */
export class StorefrontResponseDto {
  business!: EntityResponseDto;
  menu!: EntityResponseDto;

  /** Public items of the menu by extra_data.sort_position, then created_at; at most 1000. */
  @ApiProperty({ type: [StorefrontItemResponseDto] })
  items!: StorefrontItemResponseDto[];

  /** True when the menu has more than 1000 public items and only the first 1000 are here. */
  items_truncated!: boolean;

  /**
   * Whether the business takes orders at the moment of the answer: its
   * opening hours (always open without them) and its `accepting_orders`
   * switch (false: closed).
   */
  open_now!: boolean;

  /** When `open_now` changes next, ISO 8601 with the business's offset; null when not known. */
  @ApiProperty({ type: 'string', nullable: true, example: '2026-12-24T22:00:00+01:00' })
  next_change_at!: string | null;

  /**
   * The kitchen's switch at the moment of the answer: `open`, `busy` (every
   * new order takes `extra_prep_minutes` longer) or `paused` (no order for
   * now; orders for later still), returning to `open` by itself at `until`.
   * `accepting_orders: false` reads as `paused` with no `until`.
   */
  availability!: AvailabilityDto;

  /** The menu's prep time plus a busy kitchen's extra minutes. */
  @ApiProperty({ example: 35 })
  estimated_wait_minutes!: number;
}

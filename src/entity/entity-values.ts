import { ApiError, ErrorDetail } from '../http/api-error';
import { EntityBodyDto } from './dto/entity-body.dto';
import { EntityRecord } from './entity-record.entity';
import { EntityValues } from './entity-sql';
import { EntityType } from './entity-types';
import { normaliseExtraData } from './extra-data';

/**
 * The longest meta_key written, in characters (Unicode code points): each
 * becomes up to 12 characters of a percent-encoded storefront URL, which a
 * QR code must hold.
 */
export const MAX_META_KEY_CODE_POINTS = 120;

/** Sent and meaningful: clients send "" for "nothing" (such as `uuid: ""`). */
export function present<T>(value: T | null | undefined | ''): value is T {
  return value !== undefined && value !== null && value !== '';
}

/**
 * The columns to write: the body over the stored record (update) or over
 * the defaults (create). Server-owned fields never come from the body.
 * Every fault is collected, so the answer names each bad field once.
 */
export function resolveValues(
  type: EntityType,
  body: EntityBodyDto,
  current: EntityRecord | undefined,
): EntityValues {
  const faults: ErrorDetail[] = [];
  const pick = <T>(sent: T | null | undefined, stored: T | null | undefined): T | null =>
    sent === undefined ? (stored ?? null) : sent;

  const metaKey = pick(body.meta_key, current?.metaKey);
  if (type.metaKeyRequired && (metaKey === null || metaKey.trim() === '')) {
    faults.push({
      field: 'meta_key',
      message: `meta_key is required for a ${type.label.toLowerCase()}: it names it in the storefront URL.`,
    });
  }
  // R73: a meta_key short enough for a printed QR code. Written values only: a
  // record stored before keeps its longer key until that key is changed.
  if (
    typeof body.meta_key === 'string' &&
    body.meta_key !== current?.metaKey &&
    [...body.meta_key].length > MAX_META_KEY_CODE_POINTS
  ) {
    faults.push({
      field: 'meta_key',
      message: `meta_key must be at most ${MAX_META_KEY_CODE_POINTS} characters: it is printed into the storefront URL and its QR code.`,
    });
  }

  let parentEntityType: string | null = null;
  let parentEntityUuid: string | null = null;
  if (type.parent) {
    parentEntityType = type.parent.name;
    if (present(body.parent_entity_type) && body.parent_entity_type !== type.parent.name) {
      faults.push({
        field: 'parent_entity_type',
        message: `The parent of a ${type.name} must be a ${type.parent.name}.`,
      });
    }
    parentEntityUuid = present(body.parent_entity_uuid)
      ? body.parent_entity_uuid.toLowerCase()
      : (current?.parentEntityUuid ?? null);
    if (parentEntityUuid === null) {
      faults.push({
        field: 'parent_entity_uuid',
        message: `parent_entity_uuid is required: the uuid of the ${type.parent.label.toLowerCase()}.`,
      });
    }
  } else {
    for (const field of ['parent_entity_type', 'parent_entity_uuid'] as const) {
      if (present(body[field])) {
        faults.push({ field, message: `A ${type.name} has no parent; leave ${field} out.` });
      }
    }
  }

  let extraData = current?.extraData ?? {};
  if (body.extra_data !== undefined || !current) {
    const result = normaliseExtraData(type.extraData, body.extra_data);
    faults.push(...result.faults);
    extraData = result.value;
  }

  if (faults.length) throw ApiError.validation(faults);
  return {
    requestId: current ? current.requestId : present(body.request_id) ? body.request_id : null,
    slug: pick(body.slug, current?.slug),
    metaKey,
    metaValue: pick(body.meta_value, current?.metaValue),
    titleName: pick(body.title_name, current?.titleName),
    description: pick(body.description, current?.description),
    entityFeaturedUrl: pick(body.entity_featured_url, current?.entityFeaturedUrl),
    status: body.status ?? current?.status ?? 'enabled',
    parentEntityType,
    parentEntityUuid,
    extraData,
  };
}

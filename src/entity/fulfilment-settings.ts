import { ErrorDetail } from '../http/api-error';
import { deliveryZones, DELIVERY_ZONES_SCHEMA } from './domain/delivery-zones-setting';
import { amount, Described, FieldRule, flag, nullable, rule } from './extra-data';

export const FULFILMENT_MODES = ['dine_in', 'pickup', 'delivery'] as const;
export const SLOT_MINUTES = [5, 10, 15, 20, 30, 60] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole number (or a string holding one) within [min, max]; stored as a number. */
function bounded(
  value: unknown,
  field: string,
  faults: ErrorDetail[],
  min: number,
  max: number,
): number | undefined {
  const parsed =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,6}$/.test(value.trim())
        ? Number(value.trim())
        : NaN;
  if (Number.isSafeInteger(parsed) && parsed >= min && parsed <= max) return parsed;
  faults.push({ field, message: `${field} must be a whole number from ${min} to ${max}.` });
}

/** `{ minimum_order_amount }` of one mode (and `zones` for delivery); other keys are kept. */
function modeSettings(
  value: unknown,
  field: string,
  faults: ErrorDetail[],
  mode: (typeof FULFILMENT_MODES)[number],
): unknown {
  if (value === null) return value;
  if (!isPlainObject(value)) {
    faults.push({ field, message: `${field} must be an object.` });
    return;
  }
  const result = { ...value };
  if (value.minimum_order_amount !== undefined && value.minimum_order_amount !== null) {
    result.minimum_order_amount = amount()(
      value.minimum_order_amount,
      `${field}.minimum_order_amount`,
      faults,
    );
  }
  if (mode === 'dine_in' && value.pay_at_end !== undefined) {
    // R109: a table's dine-in orders join its tab and pay at the end.
    result.pay_at_end = flag()(value.pay_at_end, `${field}.pay_at_end`, faults);
  }
  if (mode === 'delivery' && value.zones !== undefined) {
    result.zones = deliveryZones(value.zones, `${field}.zones`, faults);
  }
  return result;
}

function scheduling(value: unknown, field: string, faults: ErrorDetail[]): unknown {
  if (value === null) return value;
  if (!isPlainObject(value)) {
    faults.push({ field, message: `${field} must be an object.` });
    return;
  }
  const result: Record<string, unknown> = { ...value };
  if (value.enabled !== undefined)
    result.enabled = flag()(value.enabled, `${field}.enabled`, faults);
  if (value.slot_minutes !== undefined) {
    const slot = Number(value.slot_minutes);
    if (
      (typeof value.slot_minutes === 'number' || typeof value.slot_minutes === 'string') &&
      (SLOT_MINUTES as readonly number[]).includes(slot)
    ) {
      result.slot_minutes = slot;
    } else {
      faults.push({
        field: `${field}.slot_minutes`,
        message: `${field}.slot_minutes must be one of ${SLOT_MINUTES.join(', ')}.`,
      });
    }
  }
  if (value.max_days_ahead !== undefined) {
    result.max_days_ahead = bounded(value.max_days_ahead, `${field}.max_days_ahead`, faults, 0, 60);
  }
  if (value.max_orders_per_slot !== undefined && value.max_orders_per_slot !== null) {
    result.max_orders_per_slot = bounded(
      value.max_orders_per_slot,
      `${field}.max_orders_per_slot`,
      faults,
      1,
      10000,
    );
  }
  return result;
}

/**
 * A menu's `extra_data.fulfilment`: how its orders may be handed over and
 * when. `modes` is a non-empty list of `dine_in`, `pickup`, `delivery`
 * without repeats; `prep_time_minutes` 0–1440; `delivery` and `pickup` may
 * hold a `minimum_order_amount` (a non-negative decimal string);
 * `scheduling` holds `enabled`, `slot_minutes` (5, 10, 15, 20, 30 or 60),
 * `max_days_ahead` (0–60) and `max_orders_per_slot` (1–10000, absent for no
 * cap); `delivery.zones` prices delivery by where it goes (see
 * delivery-zones-setting.ts). Every key but `modes` may be left out. Each fault names its path,
 * such as `extra_data.fulfilment.scheduling.slot_minutes`; other keys are kept.
 */
export function fulfilmentSettings(described?: Described): FieldRule {
  const check = (value: unknown, field: string, faults: ErrorDetail[]): unknown => {
    if (value === null) return value;
    if (!isPlainObject(value)) {
      faults.push({ field, message: `${field} must be an object.` });
      return;
    }
    const result: Record<string, unknown> = { ...value };
    const modes = value.modes;
    if (
      !Array.isArray(modes) ||
      modes.length === 0 ||
      !modes.every((mode) => (FULFILMENT_MODES as readonly unknown[]).includes(mode)) ||
      new Set(modes).size !== modes.length
    ) {
      faults.push({
        field: `${field}.modes`,
        message: `${field}.modes must be a non-empty list of ${FULFILMENT_MODES.join(', ')}, each at most once.`,
      });
    }
    if (value.prep_time_minutes !== undefined && value.prep_time_minutes !== null) {
      result.prep_time_minutes = bounded(
        value.prep_time_minutes,
        `${field}.prep_time_minutes`,
        faults,
        0,
        1440,
      );
    }
    for (const mode of ['delivery', 'pickup', 'dine_in'] as const) {
      if (value[mode] !== undefined) {
        result[mode] = modeSettings(value[mode], `${field}.${mode}`, faults, mode);
      }
    }
    if (value.scheduling !== undefined) {
      result.scheduling = scheduling(value.scheduling, `${field}.scheduling`, faults);
    }
    return result;
  };
  const minimum = amount({ description: 'The least the items may come to for this mode.' });
  const mode = {
    type: 'object',
    additionalProperties: true,
    properties: { minimum_order_amount: { ...minimum.schema, example: '15.00' } },
  };
  const schema = nullable({
    type: 'object',
    additionalProperties: true,
    description: 'Every key but modes may be left out.',
    required: ['modes'],
    properties: {
      modes: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', enum: [...FULFILMENT_MODES] },
      },
      prep_time_minutes: { type: 'integer', minimum: 0, maximum: 1440, example: 20 },
      dine_in: {
        ...mode,
        properties: {
          ...mode.properties,
          pay_at_end: {
            ...flag().schema,
            description: "A table's dine-in orders join its tab, paid at the end.",
          },
        },
      },
      pickup: mode,
      delivery: {
        ...mode,
        properties: { ...mode.properties, zones: DELIVERY_ZONES_SCHEMA },
      },
      scheduling: {
        type: 'object',
        additionalProperties: true,
        description:
          'Orders for later: slots of slot_minutes (default 15) up to max_days_ahead days ahead ' +
          '(default 7), at most max_orders_per_slot orders each (no cap when absent).',
        properties: {
          enabled: flag().schema,
          slot_minutes: { type: 'integer', enum: [...SLOT_MINUTES] },
          max_days_ahead: { type: 'integer', minimum: 0, maximum: 60 },
          max_orders_per_slot: { type: 'integer', minimum: 1, maximum: 10000 },
        },
      },
    },
  });
  return rule(check, schema, described);
}

import { ErrorDetail } from '../../http/api-error';
import { Described, FieldRule, nullable, rule } from '../extra-data';

/** The fulfilment types a service charge may apply to. */
export const SERVICE_CHARGE_MODES = ['dine_in', 'pickup', 'delivery'] as const;

/** The most tip presets a business may show. */
export const MAX_TIP_PRESETS = 5;

const RATE_TEXT = /^\d{1,3}(\.\d{1,4})?$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A percentage as decimal text from 0 to 100 with at most 4 decimals; a JSON
 * number is read as its decimal text. Returns the text, or undefined after a fault.
 */
function ratePercent(value: unknown, field: string, faults: ErrorDetail[]): string | undefined {
  const candidate =
    typeof value === 'string'
      ? value.trim()
      : typeof value === 'number' && Number.isFinite(value)
        ? String(value)
        : undefined;
  if (candidate !== undefined && RATE_TEXT.test(candidate) && Number(candidate) <= 100) {
    return candidate;
  }
  faults.push({
    field,
    message: `${field} must be a percentage from 0 to 100 as decimal text with at most 4 decimals, such as "7.5".`,
  });
}

function label(value: unknown, field: string, faults: ErrorDetail[]): unknown {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string' && value.length <= 64) return value;
  faults.push({ field, message: `${field} must be a string of at most 64 characters.` });
}

function optionalFlag(value: unknown, field: string, faults: ErrorDetail[]): boolean | undefined {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  faults.push({ field, message: `${field} must be true or false.` });
}

function section(
  value: unknown,
  field: string,
  faults: ErrorDetail[],
  read: (section: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  if (value === undefined || value === null) return value;
  if (!isPlainObject(value)) {
    faults.push({ field, message: `${field} must be an object.` });
    return value;
  }
  return read(value);
}

// R57: pricing settings.
/**
 * A business's pricing settings:
 * `{ tax: { label, rate_percent, inclusive, applies_to_delivery },
 *    service_charge: { label, rate_percent, modes }, tips: { enabled, presets_percent } }`.
 * Each part may be absent. Rates are percentages from 0 to 100 with at most
 * 4 decimals (stored as decimal text); `inclusive` and `applies_to_delivery`
 * default to false; `modes` is a subset of dine_in, pickup and delivery
 * (default: all three); presets are at most 5 numbers from 0 to 100. Each
 * fault names its path, such as `extra_data.pricing.tax.rate_percent`.
 * Other keys are kept as sent.
 */
export function pricingSettings(described?: Described): FieldRule {
  const check = (value: unknown, field: string, faults: ErrorDetail[]): unknown => {
    if (value === null) return value;
    if (!isPlainObject(value)) {
      faults.push({ field, message: `${field} must be an object.` });
      return;
    }
    const out: Record<string, unknown> = { ...value };
    out.tax = section(value.tax, `${field}.tax`, faults, (tax) => ({
      ...tax,
      label: label(tax.label, `${field}.tax.label`, faults),
      rate_percent: ratePercent(tax.rate_percent, `${field}.tax.rate_percent`, faults),
      inclusive: optionalFlag(tax.inclusive, `${field}.tax.inclusive`, faults),
      applies_to_delivery: optionalFlag(
        tax.applies_to_delivery,
        `${field}.tax.applies_to_delivery`,
        faults,
      ),
    }));
    out.service_charge = section(
      value.service_charge,
      `${field}.service_charge`,
      faults,
      (charge) => {
        const at = `${field}.service_charge.modes`;
        let modes: unknown = [...SERVICE_CHARGE_MODES];
        if (charge.modes !== undefined && charge.modes !== null) {
          const list = charge.modes;
          const valid =
            Array.isArray(list) &&
            list.every((mode) => (SERVICE_CHARGE_MODES as readonly unknown[]).includes(mode)) &&
            new Set(list).size === list.length;
          if (valid) modes = list;
          else
            faults.push({
              field: at,
              message: `${at} must list some of ${SERVICE_CHARGE_MODES.join(', ')}, each at most once.`,
            });
        }
        return {
          ...charge,
          label: label(charge.label, `${field}.service_charge.label`, faults),
          rate_percent: ratePercent(
            charge.rate_percent,
            `${field}.service_charge.rate_percent`,
            faults,
          ),
          modes,
        };
      },
    );
    out.tips = section(value.tips, `${field}.tips`, faults, (tips) => {
      const at = `${field}.tips.presets_percent`;
      let presets: unknown = tips.presets_percent ?? [];
      const valid =
        Array.isArray(presets) &&
        presets.length <= MAX_TIP_PRESETS &&
        presets.every((p) => typeof p === 'number' && Number.isFinite(p) && p >= 0 && p <= 100);
      if (!valid) {
        faults.push({
          field: at,
          message: `${at} must be a list of at most ${MAX_TIP_PRESETS} numbers from 0 to 100.`,
        });
        presets = undefined;
      }
      return {
        ...tips,
        enabled: optionalFlag(tips.enabled, `${field}.tips.enabled`, faults),
        presets_percent: presets,
      };
    });
    for (const key of ['tax', 'service_charge', 'tips'])
      if (out[key] === undefined) delete out[key];
    return out;
  };
  const rate = { type: 'string', pattern: RATE_TEXT.source };
  const labelSchema = { type: 'string', maxLength: 64 };
  const modes = {
    type: 'array',
    items: { type: 'string', enum: [...SERVICE_CHARGE_MODES] },
    uniqueItems: true,
  };
  const schema = nullable({
    type: 'object',
    additionalProperties: true,
    description:
      'Each part may be absent (none of it). Rates are percentages from 0 to 100 as decimal text ' +
      'with at most 4 decimals. `tax.inclusive` means the prices already hold the tax; ' +
      '`tax.applies_to_delivery` taxes the delivery fee too. `service_charge.modes` lists the ' +
      'fulfilment types it applies to (default all three). `tips.presets_percent` is at most ' +
      `${MAX_TIP_PRESETS} numbers from 0 to 100 for the storefront to offer.`,
    properties: {
      tax: {
        type: 'object',
        required: ['rate_percent'],
        properties: {
          label: labelSchema,
          rate_percent: rate,
          inclusive: { type: 'boolean', default: false },
          applies_to_delivery: { type: 'boolean', default: false },
        },
      },
      service_charge: {
        type: 'object',
        required: ['rate_percent'],
        properties: { label: labelSchema, rate_percent: rate, modes },
      },
      tips: {
        type: 'object',
        properties: {
          enabled: { type: 'boolean', default: false },
          presets_percent: {
            type: 'array',
            maxItems: MAX_TIP_PRESETS,
            items: { type: 'number', minimum: 0, maximum: 100 },
          },
        },
      },
    },
  });
  return rule(check, schema, described);
}

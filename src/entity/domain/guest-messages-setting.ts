import { ErrorDetail } from '../../http/api-error';
import { Described, FieldRule, isPlainObject, rule } from '../extra-data';

const CHANNELS = ['whatsapp', 'sms'] as const;
const EVENTS = ['accepted', 'ready', 'out_for_delivery', 'rejected'] as const;

function list(
  value: unknown,
  allowed: readonly string[],
  field: string,
  faults: ErrorDetail[],
): unknown {
  const valid =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((entry) => allowed.includes(entry as string)) &&
    new Set(value).size === value.length;
  if (!valid) {
    faults.push({
      field,
      message: `${field} must list one or more of ${allowed.join(', ')}, each at most once.`,
    });
  }
  return value;
}

// R102: the business's guest_messages setting, checked when it is written.
/**
 * A business's guest messages: `{ channels, events, monthly_limit }`.
 * `channels` lists `whatsapp` and/or `sms` in the business's order of
 * preference, `events` some of accepted, ready, out_for_delivery and
 * rejected, `monthly_limit` a whole number from 0 (null or absent: no
 * limit). Each fault names its path, such as
 * `extra_data.guest_messages.channels`. Other keys are kept as sent.
 */
export function guestMessagesSetting(described?: Described): FieldRule {
  const check = (value: unknown, field: string, faults: ErrorDetail[]): unknown => {
    if (value === null) return value;
    if (!isPlainObject(value)) {
      faults.push({ field, message: `${field} must be an object.` });
      return;
    }
    list(value.channels, CHANNELS, `${field}.channels`, faults);
    list(value.events, EVENTS, `${field}.events`, faults);
    const limit = value.monthly_limit;
    if (
      limit !== undefined &&
      limit !== null &&
      !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 0 && limit <= 10_000_000)
    ) {
      faults.push({
        field: `${field}.monthly_limit`,
        message: `${field}.monthly_limit must be a whole number from 0 to 10000000.`,
      });
    }
    return value;
  };
  return rule(
    check,
    {
      type: 'object',
      nullable: true,
      required: ['channels', 'events'],
      properties: {
        channels: { type: 'array', items: { type: 'string', enum: [...CHANNELS] }, minItems: 1 },
        events: { type: 'array', items: { type: 'string', enum: [...EVENTS] }, minItems: 1 },
        monthly_limit: { type: 'integer', minimum: 0, nullable: true },
      },
      additionalProperties: true,
    },
    described,
  );
}

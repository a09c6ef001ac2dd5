import { ErrorDetail } from '../../http/api-error';
import { Described, FieldRule, rule } from '../extra-data';

/** The channels Paystack's checkout can offer. */
export const PAYSTACK_CHANNELS = [
  'card',
  'bank',
  'ussd',
  'qr',
  'mobile_money',
  'bank_transfer',
  'eft',
] as const;

const NAME_FIELDS = ['provider', 'key', 'name', 'id', 'slug', 'type', 'value'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkChannels(entry: unknown, at: string, faults: ErrorDetail[]): void {
  if (!isPlainObject(entry) || entry.channels === undefined || entry.channels === null) return;
  const channels = entry.channels;
  const valid =
    Array.isArray(channels) &&
    channels.length > 0 &&
    channels.every((c) => (PAYSTACK_CHANNELS as readonly unknown[]).includes(c)) &&
    new Set(channels).size === channels.length;
  if (!valid) {
    faults.push({
      field: `${at}.channels`,
      message: `${at}.channels must be a non-empty list of ${PAYSTACK_CHANNELS.join(', ')}, each at most once.`,
    });
  }
}

// R61: paystack channels.
/**
 * The payment methods a menu offers, an array or an object keyed by provider,
 * stored as sent. The `paystack` entry may name the `channels` its checkout
 * offers: a non-empty subset of card, bank, ussd, qr, mobile_money,
 * bank_transfer and eft.
 */
export function paymentProviders(described?: Described): FieldRule {
  const check = (value: unknown, field: string, faults: ErrorDetail[]): unknown => {
    if (value === null) return value;
    if (Array.isArray(value)) {
      value.forEach((entry, index) => {
        const named =
          isPlainObject(entry) &&
          NAME_FIELDS.some(
            (key) =>
              typeof entry[key] === 'string' &&
              (entry[key] as string).trim().toLowerCase() === 'paystack',
          );
        if (named) checkChannels(entry, `${field}[${index}]`, faults);
      });
      return value;
    }
    if (isPlainObject(value)) {
      for (const [key, entry] of Object.entries(value)) {
        if (key.trim().toLowerCase() === 'paystack')
          checkChannels(entry, `${field}.${key}`, faults);
      }
      return value;
    }
    faults.push({ field, message: `${field} must be an array or an object.` });
  };
  // No `nullable` beside `oneOf` (OpenAPI 3.0 ties it to `type`); null still means "not set".
  const schema = {
    oneOf: [
      { type: 'array', items: {} },
      { type: 'object', additionalProperties: true },
    ],
    description:
      'An array, or an object keyed by provider (`paystack`, `bank_transfer`) whose values ' +
      'describe it (`title`, `description`, `fee`, `fee_max_amount`; for bank_transfer also ' +
      '`account_name`, `account_number`, `bank_name`). Stored as sent. The `paystack` entry may ' +
      `name \`channels\`, a non-empty list of ${PAYSTACK_CHANNELS.map((c) => `\`${c}\``).join(', ')}, ` +
      'passed to the checkout (400 naming the path otherwise); without them Paystack offers its defaults.',
  };
  return rule(check, schema, described);
}

import { Described, FieldRule, nullable, rule } from '../extra-data';
import { normaliseOpeningHours } from './opening-hours';

const TIME = '^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$';

/** A business's opening hours; the rules are those of `normaliseOpeningHours`. */
export function openingHours(described?: Described): FieldRule {
  return rule(
    (value, field, faults) => normaliseOpeningHours(value, field, faults),
    nullable({
      type: 'object',
      description:
        '`timezone` is an IANA zone; `weekly` maps `mon`…`sun` to a list of `["HH:MM", "HH:MM"]` ' +
        'intervals (an end of `24:00` is allowed, an end before its start runs past midnight, a ' +
        'day left out or `[]` is closed); `closures` are whole local days, `from` ≤ `to`.',
      required: ['timezone'],
      properties: {
        timezone: { type: 'string', example: 'Africa/Lagos' },
        weekly: {
          type: 'object',
          additionalProperties: {
            type: 'array',
            items: {
              type: 'array',
              items: { type: 'string', pattern: TIME },
              minItems: 2,
              maxItems: 2,
            },
          },
        },
        closures: {
          type: 'array',
          items: {
            type: 'object',
            required: ['from', 'to'],
            properties: {
              from: { type: 'string', format: 'date' },
              to: { type: 'string', format: 'date' },
              note: { type: 'string' },
            },
          },
        },
      },
    }),
    described,
  );
}

import { ErrorDetail } from '../http/api-error';
import { ENTITY_TYPE_DEFINITIONS } from './entity-types';
import { FieldRule, normaliseExtraData, SchemaObject } from './extra-data';
import { EXTRA_DATA_DOCUMENTS } from './extra-data-openapi';

/** The JSON types a schema admits, its own `type` or those of its `oneOf`. */
function typesOf(schema: SchemaObject): string[] {
  const own = schema.type ? [schema.type as string] : [];
  const alternatives = ((schema.oneOf ?? []) as SchemaObject[]).map((s) => s.type as string);
  return [...own, ...alternatives].map((type) => (type === 'integer' ? 'number' : type));
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value;
}

const CANDIDATES: unknown[] = [42, 'x', true, ['x'], { x: 1 }];

function refuses(rule: FieldRule, value: unknown): boolean {
  const faults: ErrorDetail[] = [];
  rule(value, 'extra_data.f', faults);
  return faults.length > 0;
}

describe('extra_data rules and their schemas', () => {
  const rules = ENTITY_TYPE_DEFINITIONS.flatMap((definition) =>
    Object.entries(definition.extraData.fields).map(([key, rule]) => ({
      name: `${definition.suffix}.${key}`,
      rule,
    })),
  );

  it.each(rules)('$name refuses every value of a type its schema does not admit', ({ rule }) => {
    const types = typesOf(rule.schema);
    expect(types.length).toBeGreaterThan(0);
    const wrong = CANDIDATES.filter((value) => !types.includes(jsonType(value)));
    expect(wrong.length).toBeGreaterThan(0);
    for (const value of wrong) expect([value, refuses(rule, value)]).toEqual([value, true]);
  });

  const fields = (suffix: string) =>
    ENTITY_TYPE_DEFINITIONS.find((d) => d.suffix === suffix)!.extraData.fields;

  it('refuses values that break a pattern, a minimum or an enum of the schema', () => {
    const item = fields('business_menu_item');
    const price = item.unit_price_amount.schema.oneOf as SchemaObject[];
    const pattern = new RegExp(price[0].pattern as string);
    for (const value of ['12.345', '-1', '1e3']) {
      expect(pattern.test(value)).toBe(false);
      expect(refuses(item.unit_price_amount, value)).toBe(true);
    }
    expect(refuses(item.unit_price_amount, -1)).toBe(true);
    const min = (item.minimum_quantity_per_order.schema.oneOf as SchemaObject[])[0].minimum;
    expect(min).toBe(0);
    expect(refuses(item.minimum_quantity_per_order, -1)).toBe(true);
    const groups = item.option_groups.schema as any;
    expect(new RegExp(groups.items.properties.key.pattern).test('Not A Key')).toBe(false);
    expect(refuses(item.option_groups, [{ key: 'Not A Key', options: [] }])).toBe(true);
    expect(refuses(item.option_groups, new Array(groups.maxItems + 1).fill(null))).toBe(true);

    const menu = fields('business_menu');
    const modes = (menu.fulfilment.schema as any).properties.modes;
    expect(modes.items.enum).not.toContain('drive_through');
    expect(refuses(menu.fulfilment, { modes: ['drive_through'] })).toBe(true);
    expect(refuses(menu.fulfilment, { modes: [] })).toBe(modes.minItems === 1);

    const business = fields('business');
    const tax = (business.pricing.schema as any).properties.tax.properties.rate_percent;
    expect(new RegExp(tax.pattern).test('7.12345')).toBe(false);
    expect(refuses(business.pricing, { tax: { rate_percent: '7.12345' } })).toBe(true);
    expect(refuses(business.contact_email, 'not an email')).toBe(true);
  });

  it('documents the required keys the validator requires', () => {
    for (const definition of ENTITY_TYPE_DEFINITIONS) {
      const document = EXTRA_DATA_DOCUMENTS.find((d) => d.suffix === definition.suffix)!;
      const required = (document.schema.required ?? []) as string[];
      expect(required).toEqual(definition.extraData.required ?? []);
      const faults = normaliseExtraData(definition.extraData, {}).faults.map((f) => f.field);
      expect(faults).toEqual(required.map((key) => `extra_data.${key}`));
    }
  });
});

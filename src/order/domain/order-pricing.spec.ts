import { Money } from '../../common/money';
import { FulfilmentType } from './fulfilment-type';
import {
  AppliedDiscount,
  priceOrder,
  PricingBlock,
  readPricingSettings,
  roundMinor,
  toPricingBlock,
} from './order-pricing';

interface Case {
  name: string;
  items: string[];
  delivery?: string;
  pricing?: Record<string, unknown>;
  type?: FulfilmentType;
  discount?: Pick<AppliedDiscount, 'kind' | 'value'>;
  tip?: string | number;
  expect: Partial<PricingBlock>;
}

const VAT = { tax: { label: 'VAT', rate_percent: '7.5' } };
const VAT_INCLUSIVE = { tax: { label: 'VAT', rate_percent: '7.5', inclusive: true } };

const cases: Case[] = [
  {
    name: 'no settings: the items alone',
    items: ['10.00', '5.50'],
    delivery: '2.00',
    expect: {
      items_subtotal: '15.50',
      delivery_fee: '2.00',
      discount: '0.00',
      service_charge: '0.00',
      tax: '0.00',
      tax_inclusive: false,
      tip: '0.00',
      total: '17.50',
    },
  },
  {
    name: 'exclusive VAT is added',
    items: ['100.00'],
    pricing: VAT,
    expect: { tax: '7.50', total: '107.50', tax_inclusive: false },
  },
  {
    name: 'inclusive VAT is shown but not added',
    items: ['107.50'],
    pricing: VAT_INCLUSIVE,
    expect: { tax: '7.50', total: '107.50', tax_inclusive: true },
  },
  {
    name: 'inclusive VAT rounds half away from zero',
    items: ['10.00'],
    pricing: VAT_INCLUSIVE,
    // 10 − 10 / 1.075 = 0.6976… → 0.70
    expect: { tax: '0.70', total: '10.00' },
  },
  {
    name: 'service charge applies in its modes',
    items: ['50.00'],
    pricing: { service_charge: { rate_percent: '10', modes: ['dine_in'] } },
    type: 'dine_in',
    expect: { service_charge: '5.00', total: '55.00' },
  },
  {
    name: 'service charge is 0 outside its modes',
    items: ['50.00'],
    pricing: { service_charge: { rate_percent: '10', modes: ['dine_in'] } },
    type: 'pickup',
    expect: { service_charge: '0.00', total: '50.00' },
  },
  {
    name: 'service charge without modes applies to every type',
    items: ['50.00'],
    pricing: { service_charge: { rate_percent: '10' } },
    type: 'delivery',
    expect: { service_charge: '5.00', total: '55.00' },
  },
  {
    name: 'discount comes before service charge and tax',
    items: ['100.00'],
    pricing: { ...VAT, service_charge: { rate_percent: '10', modes: ['dine_in'] } },
    type: 'dine_in',
    discount: { kind: 'percent', value: '20' },
    // 100 − 20 = 80; service 8; tax 7.5 % of 88 = 6.60; total 80 + 8 + 6.60
    expect: { discount: '20.00', service_charge: '8.00', tax: '6.60', total: '94.60' },
  },
  {
    name: 'a fixed discount is at most the items subtotal',
    items: ['12.00'],
    delivery: '3.00',
    discount: { kind: 'fixed', value: '50' },
    expect: { discount: '12.00', total: '3.00' },
  },
  {
    name: 'a percent discount rounds to the minor unit',
    items: ['9.99'],
    discount: { kind: 'percent', value: '15' },
    // 1.4985 → 1.50
    expect: { discount: '1.50', total: '8.49' },
  },
  {
    name: 'delivery is not taxed by default',
    items: ['100.00'],
    delivery: '10.00',
    pricing: VAT,
    expect: { tax: '7.50', total: '117.50' },
  },
  {
    name: 'delivery is taxed when the tax applies to it',
    items: ['100.00'],
    delivery: '10.00',
    pricing: { tax: { rate_percent: '7.5', applies_to_delivery: true } },
    expect: { tax: '8.25', total: '118.25' },
  },
  {
    name: 'a tip is added when tips are enabled',
    items: ['20.00'],
    pricing: { tips: { enabled: true, presets_percent: [10] } },
    tip: '2.50',
    expect: { tip: '2.50', total: '22.50' },
  },
  {
    name: 'a tip equal to the items subtotal is allowed',
    items: ['20.00'],
    pricing: { tips: { enabled: true } },
    tip: 20,
    expect: { tip: '20.00', total: '40.00' },
  },
  {
    name: 'a zero tip is fine without tips',
    items: ['20.00'],
    tip: '0',
    expect: { tip: '0.00', total: '20.00' },
  },
  {
    name: '0.1 + 0.2 is 0.30, not a binary float',
    items: ['0.10', '0.20'],
    pricing: { tax: { rate_percent: '10' } },
    expect: { items_subtotal: '0.30', tax: '0.03', total: '0.33' },
  },
  {
    name: '1.005 rounds up to 1.01 (half away from zero)',
    items: ['10.05'],
    pricing: { tax: { rate_percent: '10' } },
    // 10 % of 10.05 = 1.005 exactly → 1.01 (a float would give 1.00)
    expect: { tax: '1.01', total: '11.06' },
  },
  {
    name: 'rates with 4 decimals stay exact',
    items: ['33.33'],
    pricing: { tax: { rate_percent: '7.1234' } },
    // 33.33 × 0.071234 = 2.37422922 → 2.37
    expect: { tax: '2.37', total: '35.70' },
  },
];

function run(c: Case) {
  return priceOrder({
    lines: [
      ...c.items.map((amount) => ({ lineTotal: new Money(amount), isDelivery: false })),
      ...(c.delivery ? [{ lineTotal: new Money(c.delivery), isDelivery: true }] : []),
    ],
    settings: readPricingSettings(c.pricing),
    fulfilmentType: c.type ?? 'pickup',
    discount: c.discount ? { uuid: 'd', code: 'CODE', ...c.discount } : null,
    tipAmount: c.tip,
  });
}

describe('priceOrder', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = run(c);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(toPricingBlock(result.pricing)).toMatchObject(c.expect);
  });

  it.each([
    ['a tip without tips enabled', { items: ['20.00'], tip: '1.00' }, 'does not take tips'],
    [
      'a tip above the items subtotal',
      { items: ['20.00'], pricing: { tips: { enabled: true } }, tip: '20.01' },
      'at most',
    ],
    [
      'a tip with three decimals',
      { items: ['20.00'], pricing: { tips: { enabled: true } }, tip: '1.005' },
      'at most 2 decimals',
    ],
  ])('refuses %s on tip_amount', (_name, c, message) => {
    const result = run({ name: '', expect: {}, ...(c as Partial<Case>) } as Case);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0].field).toBe('tip_amount');
    expect(result.problems[0].message).toContain(message);
  });

  it('keeps the rates it used, and none without settings', () => {
    const bare = run({ name: '', items: ['1.00'], expect: {} });
    expect(bare.ok && bare.pricing.rates).toBeNull();
    const priced = run({
      name: '',
      items: ['1.00'],
      pricing: { ...VAT, service_charge: { rate_percent: '10', modes: ['dine_in'] } },
      discount: { kind: 'fixed', value: '0.5' },
      expect: {},
    });
    expect(priced.ok && priced.pricing.rates).toEqual({
      tax: { label: 'VAT', rate_percent: '7.5', inclusive: false, applies_to_delivery: false },
      service_charge: { label: null, rate_percent: '10', modes: ['dine_in'] },
      discount: { code: 'CODE', kind: 'fixed', value: '0.5' },
    });
  });

  it('rounds half away from zero', () => {
    expect(roundMinor(new Money('1.005')).toFixed(2)).toBe('1.01');
    expect(roundMinor(new Money('-1.005')).toFixed(2)).toBe('-1.01');
    expect(roundMinor(new Money('2.675')).toFixed(2)).toBe('2.68');
  });
});

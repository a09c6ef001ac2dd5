import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { paymentProviders } from './domain/payment-channels';
import { pricingSettings } from './domain/pricing-settings';
import { openingHours } from './domain/opening-hours-rule';
import { optionGroups } from './domain/option-groups';
import { amount, email, ExtraDataSchema, flag, integer, shape, text, textList } from './extra-data';
import { fulfilmentSettings } from './fulfilment-settings';
import { kitchenSetting } from './domain/kitchen-setting';
import { withoutZones } from './domain/delivery-zones';
import { guestMessagesSetting } from './domain/guest-messages-setting';
import { LABEL_FIELDS, menuLanguages, RECORD_TRANSLATIONS } from './domain/menu-labels';
import { stockSetting } from './domain/stock-setting';

/** One entity type as written once, independent of the namespace. */
export interface EntityTypeDefinition {
  /** The type name after `{ns}_`, the API_NAMESPACE prefix. */
  suffix: string;
  /** Used in answer messages: "<label> created". */
  label: string;
  /** Suffix of the parent type; none for a top-level type. */
  parentSuffix?: string;
  /** meta_key names the record in the storefront URL, so it must not be empty. */
  metaKeyRequired: boolean;
  /** The name of its extra_data's schema in the OpenAPI document. */
  extraDataSchemaName: string;
  extraData: ExtraDataSchema;
}

/**
 * The registry of entity types, all stored in one table: adding a type is
 * one entry here. extra_data rules follow the fields clients send, liberal where
 * real clients differ (integers as form strings, providers as array or object).
 * Uniqueness of meta_key is the database's job: among live top-level records
 * of a type, and among the live menus of a business (see the migrations).
 */
export const ENTITY_TYPE_DEFINITIONS: readonly EntityTypeDefinition[] = [
  {
    suffix: 'business',
    label: 'Business',
    metaKeyRequired: true,
    extraDataSchemaName: 'BusinessExtraData',
    extraData: {
      description: 'The `extra_data` of a business (`{ns}_business`). Other keys are kept as sent.',
      fields: {
        business_address: text({
          description: 'Street address shown to guests.',
          example: '12 Marina Road, Lagos',
        }),
        contact_email: email({
          description: 'Where the business is reached.',
          example: 'hello@kemi-kitchen.example',
        }),
        enable_on_portal_listing: flag({
          description: 'Whether the business may be listed in a public directory.',
        }),
        country_of_registration: text({
          description: 'Country the business is registered in.',
          example: 'NG',
        }),
        accepting_orders: flag({
          description:
            'The owner’s switch for a busy kitchen: false refuses new orders whatever the opening hours say. Default true.',
          example: true,
        }),
        // R90: an order nobody accepts in time is rejected by the service.
        acceptance_deadline_minutes: integer({
          min: 1,
          max: 240,
          description:
            'Minutes (1–240) an order for now may stay pending before the service rejects it ' +
            'and refunds what was paid online; an order for later is rejected at its requested ' +
            'time minus the prep time. Absent: orders wait for the team however long it takes.',
          example: 10,
        }),
        opening_hours: openingHours({
          description:
            'When guests may order; without it the business is always open. Placement while ' +
            'closed is 422 with `opens_at`; the storefront answers `open_now` and `next_change_at`.',
          example: {
            timezone: 'Africa/Lagos',
            weekly: { mon: [['08:00', '22:00']], fri: [['18:00', '02:00']], sun: [] },
            closures: [{ from: '2026-12-24', to: '2026-12-26', note: 'Christmas' }],
          },
        }),
        guest_messages: guestMessagesSetting({
          description:
            'Order messages to guests who consented, by WhatsApp and SMS: the channels in order of preference (the second is the fallback), the order events that send one, and at most `monthly_limit` a month. Without it no message is sent.',
          example: {
            channels: ['whatsapp', 'sms'],
            events: ['accepted', 'ready'],
            monthly_limit: 1000,
          },
        }),
        paystack_subaccount_code: text({
          description:
            'Paystack subaccount the card payments of this business settle to (sent with each checkout).',
          example: 'ACCT_8f4s1eq7ml6rlzj',
        }),
        pricing: pricingSettings({
          description:
            'How orders are priced beyond their items; without it the total is the items alone.',
          example: {
            tax: {
              label: 'VAT',
              rate_percent: '7.5',
              inclusive: false,
              applies_to_delivery: false,
            },
            service_charge: { label: 'Service', rate_percent: '10', modes: ['dine_in'] },
            tips: { enabled: true, presets_percent: [5, 10, 15] },
          },
        }),
        translations: RECORD_TRANSLATIONS,
        kitchen: kitchenSetting({
          description:
            "The kitchen's stations and which items each prepares: an item goes to the first " +
            'station naming its uuid, else the first naming its category, else `default_station` ' +
            '(absent: the first). Without it one station, `kitchen`, takes every item.',
          example: {
            stations: [
              { key: 'grill', title: 'Grill', categories: ['Burgers', 'Suya'] },
              { key: 'bar', title: 'Bar', categories: ['Drinks'] },
            ],
            default_station: 'grill',
          },
        }),
      },
    },
  },
  {
    suffix: 'business_menu',
    label: 'Menu',
    parentSuffix: 'business',
    metaKeyRequired: true,
    extraDataSchemaName: 'MenuExtraData',
    extraData: {
      description:
        'The `extra_data` of a menu (`{ns}_business_menu`). Other keys are kept as sent.',
      fields: {
        menu_base_wallet_ticker: text({
          description:
            'The menu’s currency: an ISO 4217 code, or a name with the code in parentheses.',
          example: 'NGN',
        }),
        menu_base_wallet_ticker_symbol: text({
          description: 'The currency symbol shown with prices.',
          example: '₦',
        }),
        menu_primary_color: text({ description: 'Storefront accent colour.', example: '#E4572E' }),
        enable_dark_mode: flag({ description: 'Storefront theme.' }),
        menu_featured_categories: textList({
          description: 'Item categories shown first, in order.',
          example: ['Mains', 'Drinks'],
        }),
        menu_checkout_payments_providers: paymentProviders({
          description:
            'The payment methods the menu offers besides cash. An order may only use a method ' +
            'other than cash that is listed here.',
          example: {
            bank_transfer: {
              title: 'Bank transfer',
              description: 'Pay to the account below',
              account_name: 'Bistro Ltd',
              account_number: '0123456789',
              bank_name: 'Example Bank',
            },
          },
        }),
        support_tab: shape(
          {
            title: text({ description: 'Heading.' }),
            content: text({ description: 'Text.' }),
            nav_button_text: text({ description: 'Label of the button that opens it.' }),
            show_ring_feature_on_support_page: flag({
              description: 'Whether guests can call a waiter from it.',
            }),
          },
          { description: 'The storefront’s support page.' },
        ),
        contact_info: shape(
          {
            email_address: email({
              description: 'Contact address.',
              example: 'hello@kemi-kitchen.example',
            }),
            mobile_number: text({ description: 'Phone number.', example: '+2348000000000' }),
            address: text({ description: 'Postal address.' }),
            show_contact_info_on_support_page: flag({ description: 'Whether to show them.' }),
          },
          { description: 'Contact details shown on the support page.' },
        ),
        fulfilment: fulfilmentSettings({
          description:
            'How orders are handed over and when. Without it every mode is offered, with no prep ' +
            'time, no minimum and no orders for later.',
        }),
        languages: menuLanguages({
          description:
            'The languages the storefront answers in: `default` and the `available` ones (BCP 47).',
        }),
        translations: RECORD_TRANSLATIONS,
      },
      // The delivery zones have limits of their own (50 zones of up to 500 points).
      sized: withoutZones,
    },
  },
  {
    suffix: 'business_menu_item',
    label: 'Menu item',
    parentSuffix: 'business_menu',
    metaKeyRequired: false,
    extraDataSchemaName: 'ItemExtraData',
    extraData: {
      description:
        'The `extra_data` of a menu item (`{ns}_business_menu_item`). The maximum quantity must ' +
        'be at least the minimum. Other keys are kept as sent.',
      fields: {
        tag: text({
          description: 'A short label such as "spicy" or "new".',
          example: 'chef’s choice',
        }),
        category: text({
          description:
            'The item’s category. An order may hold at most one line whose item has the category `Delivery`.',
          example: 'Mains',
        }),
        unit_price_amount: amount({ description: 'Price of one unit.', example: '3500.00' }),
        minimum_quantity_per_order: integer({
          min: 0,
          description: 'Fewest units one cart line may order; at least 0.',
          example: 1,
        }),
        maximum_quantity_per_order: integer({
          min: 0,
          description: 'Most units one cart line may order; at least the minimum.',
          example: 10,
        }),
        sort_position: integer({
          description: 'Place in the storefront; lower first, then by creation time.',
          example: 1,
        }),
        available: flag({
          description:
            'False marks the item sold out: guests still see it, but a cart line naming it is refused (422). Default true.',
          example: true,
        }),
        option_groups: optionGroups({
          description:
            'Sizes, extras and sides. A cart line chooses options with `options: [{group, option}]`; ' +
            'its unit price is `unit_price_amount` plus the deltas.',
          example: [
            {
              key: 'size',
              title: 'Size',
              min_selected: 1,
              max_selected: 1,
              options: [
                { key: 'regular', title: 'Regular', price_delta: '0' },
                { key: 'large', title: 'Large', price_delta: '1.50' },
              ],
            },
          ],
        }),
        ...LABEL_FIELDS,
        translations: RECORD_TRANSLATIONS,
        stock: stockSetting({
          description:
            'Portions that run out: without it the item is unlimited. Placement takes the ' +
            'ordered portions (422 with `remaining` when fewer remain); see the stock routes.',
          example: { mode: 'daily', quantity: 40, low_at: 5 },
        }),
      },
      // The source marks these as needed by the storefront; an order cannot be priced without them.
      required: ['unit_price_amount', 'minimum_quantity_per_order', 'maximum_quantity_per_order'],
      check: (data, faults) => {
        const min = data.minimum_quantity_per_order as number;
        const max = data.maximum_quantity_per_order as number;
        if (max < min) {
          faults.push({
            field: 'extra_data.maximum_quantity_per_order',
            message:
              'extra_data.maximum_quantity_per_order must be at least minimum_quantity_per_order.',
          });
        }
      },
    },
  },
];

/** A registry entry resolved for the configured namespace. */
export interface EntityType {
  /** `{ns}_business`, … */
  name: string;
  suffix: string;
  label: string;
  parent: EntityType | undefined;
  metaKeyRequired: boolean;
  extraData: ExtraDataSchema;
}

/** Ancestors of a type, nearest first (a menu item: menu, then business). */
export function ancestorsOf(type: EntityType): EntityType[] {
  const chain: EntityType[] = [];
  for (let parent = type.parent; parent; parent = parent.parent) chain.push(parent);
  return chain;
}

@Injectable()
export class EntityTypeRegistry {
  private readonly types = new Map<string, EntityType>();
  private readonly bySuffix = new Map<string, EntityType>();

  constructor(@InjectConfig() config: AppConfig) {
    for (const definition of ENTITY_TYPE_DEFINITIONS) {
      const parent = definition.parentSuffix
        ? this.bySuffix.get(definition.parentSuffix)
        : undefined;
      if (definition.parentSuffix && !parent) {
        throw new Error(`Entity type ${definition.suffix} is listed before its parent`);
      }
      const type: EntityType = {
        name: `${config.namespace}_${definition.suffix}`,
        suffix: definition.suffix,
        label: definition.label,
        parent,
        metaKeyRequired: definition.metaKeyRequired,
        extraData: definition.extraData,
      };
      this.types.set(type.name, type);
      this.bySuffix.set(type.suffix, type);
    }
  }

  names(): string[] {
    return [...this.types.keys()];
  }

  /** The type named in a path; any other value is 404. */
  require(name: string): EntityType {
    const type = this.types.get(name);
    if (!type) throw ApiError.notFound(`There is no entity type "${name}".`);
    return type;
  }

  /** A type by its suffix: 'business', 'business_menu', 'business_menu_item'. */
  of(suffix: string): EntityType {
    const type = this.bySuffix.get(suffix);
    if (!type) throw new Error(`Unknown entity type suffix ${suffix}`);
    return type;
  }
}

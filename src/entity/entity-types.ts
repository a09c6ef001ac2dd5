import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { paymentProviders } from './domain/payment-channels';
import { pricingSettings } from './domain/pricing-settings';
import {
  amount,
  email,
  ExtraDataSchema,
  flag,
  integer,
  openingHours,
  optionGroups,
  shape,
  text,
  textList,
} from './extra-data';
import { fulfilmentSettings } from './fulfilment-settings';

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
    extraData: {
      fields: {
        business_address: text(),
        contact_email: email(),
        enable_on_portal_listing: flag(),
        country_of_registration: text(),
        accepting_orders: flag(),
        opening_hours: openingHours(),
        paystack_subaccount_code: text(),
        pricing: pricingSettings(),
      },
    },
  },
  {
    suffix: 'business_menu',
    label: 'Menu',
    parentSuffix: 'business',
    metaKeyRequired: true,
    extraData: {
      fields: {
        menu_base_wallet_ticker: text(),
        menu_base_wallet_ticker_symbol: text(),
        menu_primary_color: text(),
        enable_dark_mode: flag(),
        menu_featured_categories: textList(),
        menu_checkout_payments_providers: paymentProviders(),
        support_tab: shape({
          title: text(),
          content: text(),
          nav_button_text: text(),
          show_ring_feature_on_support_page: flag(),
        }),
        contact_info: shape({
          email_address: email(),
          mobile_number: text(),
          address: text(),
          show_contact_info_on_support_page: flag(),
        }),
        fulfilment: fulfilmentSettings(),
      },
    },
  },
  {
    suffix: 'business_menu_item',
    label: 'Menu item',
    parentSuffix: 'business_menu',
    metaKeyRequired: false,
    extraData: {
      fields: {
        tag: text(),
        category: text(),
        unit_price_amount: amount(),
        minimum_quantity_per_order: integer({ min: 0 }),
        maximum_quantity_per_order: integer({ min: 0 }),
        sort_position: integer(),
        available: flag(),
        option_groups: optionGroups(),
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

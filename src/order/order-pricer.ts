import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DiscountRedemptions } from '../discount';
import { formatMoney, Money, withinTolerance, parseAmount } from '../common/money';
import { isDeliveryItem, OrderableItem, PricedLine, PricingProblem } from './domain/cart-pricing';
import { FulfilmentType } from './domain/fulfilment-type';
import { OrderPrice } from './order-placement.statement';
import { OrderEntity } from './entities';
import {
  AppliedDiscount,
  OrderPricing,
  priceOrder,
  readPricingSettings,
} from './domain/order-pricing';

/** What pricing needs of the order body. */
export interface PricedBody {
  amount?: number | string;
  customer_email_address: string;
  discount_code?: string | null;
  tip_amount?: number | string | null;
}

export interface PricingRequest {
  body: PricedBody;
  businessUuid: string;
  businessExtra: Record<string, unknown>;
  menuUuid: string;
  lines: readonly PricedLine[];
  itemsByUuid: ReadonlyMap<string, OrderableItem>;
  fulfilmentType: FulfilmentType;
  /** A delivery priced by its zone: the zone's fee is the delivery fee (there is no delivery line). */
  zoneFee: Money | null;
  /** Placement locks the discount code's row for its redemption; a quote only reads. */
  lock: boolean;
}

/** The price, or its problems; `unknownCode` when a code was sent that the business does not have. */
export type PricingOutcome = { unknownCode: boolean } & (
  | { ok: true; pricing: OrderPricing }
  | { ok: false; pricing: OrderPricing | null; problems: PricingProblem[] }
);

/**
 * The order's price beyond its lines, the same for placement and quote: the
 * business's pricing settings, the discount code (when it applies), the tip,
 * and the body's amount compared with the total.
 */
@Injectable()
export class OrderPricer {
  constructor(private readonly discounts: DiscountRedemptions) {}

  async price(manager: EntityManager, request: PricingRequest): Promise<PricingOutcome> {
    const { body } = request;
    const problems: PricingProblem[] = [];
    const lines = request.lines.map((line) => ({
      lineTotal: line.lineTotal,
      isDelivery: isDeliveryItem(request.itemsByUuid.get(line.itemUuid)!),
    }));
    if (request.zoneFee) lines.push({ lineTotal: request.zoneFee, isDelivery: true });
    const settings = readPricingSettings(request.businessExtra.pricing);
    const base = {
      lines,
      settings,
      fulfilmentType: request.fulfilmentType,
      tipAmount: body.tip_amount,
    };

    let discount: AppliedDiscount | null = null;
    let unknownCode = false;
    const code = typeof body.discount_code === 'string' ? body.discount_code.trim() : '';
    if (code !== '') {
      // The minimum order amount is compared with the items' subtotal before any discount.
      const bare = priceOrder({ ...base, discount: null, tipAmount: 0 });
      const itemsSubtotal = bare.ok ? bare.pricing.itemsSubtotal : null;
      if (itemsSubtotal) {
        const check = await this.discounts.check(manager, {
          businessUuid: request.businessUuid,
          menuUuid: request.menuUuid,
          code,
          itemsSubtotal,
          email: body.customer_email_address,
          lock: request.lock,
        });
        if (check.ok) discount = check.discount;
        else {
          unknownCode = check.unknown;
          problems.push({ field: 'discount_code', message: check.message });
        }
      }
    }
    const priced = priceOrder({ ...base, discount });
    if (!priced.ok) {
      return { ok: false, pricing: null, problems: [...problems, ...priced.problems], unknownCode };
    }
    const pricing = priced.pricing;
    const sent = body.amount === undefined ? null : parseAmount(body.amount);
    if (sent && !withinTolerance(sent, pricing.total)) {
      const total = formatMoney(pricing.total);
      problems.push({
        field: 'amount',
        message: `expected ${total} (within 0.005), got ${sent.toString()}`,
        computed_total: total,
      });
    }
    return problems.length
      ? { ok: false, pricing, problems, unknownCode }
      : { ok: true, pricing, unknownCode };
  }

  /**
   * An order that ended rejected or cancelled gives its discount code's
   * redemption back, in the transaction of that change.
   */
  async giveBackWhenEnded(
    manager: EntityManager,
    order: Pick<OrderEntity, 'uuid' | 'status' | 'discountUuid'>,
  ): Promise<void> {
    if (order.discountUuid && (order.status === 'rejected' || order.status === 'cancelled')) {
      await this.discounts.giveBack(manager, order.uuid);
    }
  }

  /** Counts the order's use of its discount code, in the order's transaction. */
  async redeem(manager: EntityManager, pricing: OrderPricing, orderUuid: string, email: string) {
    if (pricing.discountUuid) {
      await this.discounts.redeem(manager, pricing.discountUuid, orderUuid, email);
    }
  }
}

/** The order's price as its columns keep it. */
export function toOrderPrice(pricing: OrderPricing): OrderPrice {
  return {
    itemsSubtotal: formatMoney(pricing.itemsSubtotal),
    deliveryFee: formatMoney(pricing.deliveryFee),
    discount: formatMoney(pricing.discount),
    discountCode: pricing.discountCode,
    discountUuid: pricing.discountUuid,
    serviceCharge: formatMoney(pricing.serviceCharge),
    tax: formatMoney(pricing.tax),
    taxInclusive: pricing.taxInclusive,
    tip: formatMoney(pricing.tip),
    rates: pricing.rates,
  };
}

/** The 422 message of a price's problems: the one problem's own words, or their count. */
export function pricingRefusalMessage(
  problems: readonly PricingProblem[],
  amount: number | string | undefined,
): string {
  const [first] = problems;
  return problems.length > 1
    ? `${problems.length} problems keep the order from being placed.`
    : first.field === 'amount'
      ? `The amount ${String(amount)} does not match the order's total, ${String(first.computed_total)}.`
      : first.message;
}

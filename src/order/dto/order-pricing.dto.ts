import { ApiProperty } from '@nestjs/swagger';
import { OrderEntity } from '../entities';

/**
 * The order's price in lines, computed by the server in exact decimals:
 * total = items_subtotal + delivery_fee − discount + service_charge + tax
 * (when not inclusive) + tip. Amounts have two decimals.
 */
export class OrderPricingDto {
  /** The lines other than the delivery line. */
  @ApiProperty({ example: '40.00' })
  items_subtotal!: string;
  /** The delivery line's total, or 0. */
  @ApiProperty({ example: '0.00' })
  delivery_fee!: string;
  /** What the discount code took off, at most items_subtotal. */
  @ApiProperty({ example: '4.00' })
  discount!: string;
  /** The code applied; null for none. */
  @ApiProperty({ type: 'string', nullable: true, example: 'WELCOME10' })
  discount_code!: string | null;
  @ApiProperty({ example: '3.60' })
  service_charge!: string;
  @ApiProperty({ example: '2.97' })
  tax!: string;
  /** True when the tax is included in the prices and not added to the total. */
  tax_inclusive!: boolean;
  @ApiProperty({ example: '0.00' })
  tip!: string;
  /** Equal to the order's amount. */
  @ApiProperty({ example: '42.57' })
  total!: string;
}

/** The order answer's pricing block, from the order's columns. */
export function toOrderPricing(order: OrderEntity): OrderPricingDto {
  return {
    items_subtotal: order.itemsSubtotal,
    delivery_fee: order.deliveryFee,
    discount: order.discount,
    discount_code: order.discountCode,
    service_charge: order.serviceCharge,
    tax: order.tax,
    tax_inclusive: order.taxInclusive,
    tip: order.tip,
    total: order.amount,
  };
}

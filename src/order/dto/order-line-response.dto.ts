import { ApiProperty } from '@nestjs/swagger';
import { OrderLineEntity } from '../entities';

/** An option chosen on an order line, as it was when the order was placed. */
export class OrderLineOptionDto {
  @ApiProperty({ example: 'size' })
  group!: string;
  @ApiProperty({ example: 'Size' })
  group_title!: string | null;
  @ApiProperty({ example: 'large' })
  option!: string;
  @ApiProperty({ example: 'Large' })
  option_title!: string | null;
  /** What the option added to the unit price, two decimals. */
  @ApiProperty({ example: '1.50' })
  price_delta!: string;
}

export class OrderLineResponseDto {
  /** The line itself (a split of a tab's bill by items names it). */
  line_uuid!: string;
  item_uuid!: string;
  /** The item's title when the order was placed. */
  title_name!: string | null;
  /** The item's category when the order was placed (`Delivery` marks a delivery option). */
  category!: string | null;
  /** The unit price when the order was placed, chosen options included, two decimals. */
  @ApiProperty({ example: '19.99' })
  unit_price_amount!: string;
  /** The chosen options; [] for an item ordered without options. */
  @ApiProperty({ type: [OrderLineOptionDto] })
  options!: OrderLineOptionDto[];
  @ApiProperty({ type: 'integer', example: 3 })
  quantity!: number;
  @ApiProperty({ example: '59.97' })
  line_total!: string;
  item_note!: string | null;
  /** The allergens of the item and its chosen options (EU 1169/2011 Annex II) when it was ordered. */
  @ApiProperty({ type: [String], example: ['gluten', 'milk'] })
  allergens!: string[];
}

export function toOrderLineResponse(line: OrderLineEntity): OrderLineResponseDto {
  return {
    line_uuid: line.uuid,
    item_uuid: line.itemUuid,
    title_name: line.titleName,
    category: line.category,
    unit_price_amount: line.unitPriceAmount,
    options: (line.options ?? []) as unknown as OrderLineOptionDto[],
    quantity: line.quantity,
    line_total: line.lineTotal,
    item_note: line.itemNote,
    allergens: line.allergens ?? [],
  };
}

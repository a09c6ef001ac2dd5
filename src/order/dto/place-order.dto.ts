import { DeliveryLocationDto } from '../../entity';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { MAX_CART_LINES } from '../domain/cart-pricing';
import { parseAmount } from '../../common/money';
import { FULFILMENT_TYPES, FulfilmentType } from '../domain/fulfilment-type';
import { PAYMENT_PROCESSORS, PaymentProcessor } from '../../payment';
import { MESSAGE_CHANNELS, MessageChannel } from '../domain/message-consent';

/** A non-negative amount sent as a number or as decimal text. */
function IsAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAmount',
      validator: {
        validate: (value: unknown) => parseAmount(value) !== null,
        defaultMessage: (args) =>
          `${args?.property} must be a non-negative number or decimal text such as "12.50"`,
      },
    },
    options,
  );
}

/** `2026-12-04T19:30:00+01:00`, `…Z`, seconds and fractions optional. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whole numbers sent as text ("2") are read as numbers; anything else is left for the validators. */
const toWholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value;

/** One chosen option of a cart line: the group's key and the option's key within it. */
export class CartOptionDto {
  @ApiProperty({ example: 'size' })
  @IsString()
  @MaxLength(64)
  group!: string;

  @ApiProperty({ example: 'large' })
  @IsString()
  @MaxLength(64)
  option!: string;
}

/** Guest messages: the channel the guest prefers. */
export class MessageConsentDto {
  @ApiProperty({ enum: MESSAGE_CHANNELS, example: 'whatsapp' })
  @IsIn(MESSAGE_CHANNELS)
  channel!: MessageChannel;
}

export class CartItemDto {
  /** The menu item (a public item of the ordered menu). */
  @IsUUID('all')
  uuid!: string;

  /** Within the item's minimum_quantity_per_order … maximum_quantity_per_order. */
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  @ApiProperty({ type: 'integer', example: 2 })
  quantity!: number;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  item_note?: string;

  /**
   * The options chosen for this line, from the item's option groups. Each
   * group's count must lie within its min_selected … max_selected; each
   * option must exist, be available and be chosen once. The line's unit price
   * is the item's price plus the chosen options' price_delta.
   */
  @ApiProperty({
    type: [CartOptionDto],
    required: false,
    maxItems: 1000,
    example: [
      { group: 'size', option: 'large' },
      { group: 'extras', option: 'cheese' },
    ],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CartOptionDto)
  options?: CartOptionDto[];
}

/**
 * Where and how to deliver. With delivery zones on the menu, a delivery
 * gives `latitude` and `longitude`, or `area` (or both): the zone that holds
 * it prices the delivery.
 */
export class DeliveryDataDto extends DeliveryLocationDto {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  delivery_identifier?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  delivery_address?: string;
}

export class OnpremiseDataDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  customer_onpremise_location_type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  customer_onpremise_location_number?: string;

  /** Stored as sent: the storefront builds `<location>_<location_number>`, `_` when both are empty. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  customer_onpremise_location?: string;
}

/** The guest's order body; the server checks every rule itself, trusting no client check. */
export class PlaceOrderDto {
  /** A public menu whose business is public. */
  @IsUUID('all')
  menu_uuid!: string;

  /**
   * The total the client computed. The server computes its own from the items'
   * prices; a difference of more than 0.005 is refused.
   */
  @ApiProperty({ oneOf: [{ type: 'number' }, { type: 'string' }], example: 59.97 })
  @IsAmount()
  amount!: number | string;

  /** `paystack` is the card provider; methods other than cash must be offered by the menu. */
  @ApiProperty({ enum: PAYMENT_PROCESSORS, default: 'cash', required: false })
  @IsOptional()
  @IsIn(PAYMENT_PROCESSORS)
  payment_processor?: PaymentProcessor;

  @IsEmail()
  @MaxLength(320)
  customer_email_address!: string;

  // R45: customer fields.
  @IsOptional()
  @IsString()
  @MaxLength(32)
  customer_phone_number?: string;

  /**
   * The guest's opt-in to order messages by WhatsApp or SMS on
   * `customer_phone_number` (its preferred channel); without it no message is
   * sent. With it the phone must be a mobile number, E.164 or in the national
   * form of the business's country (422 on `customer_phone_number`
   * otherwise), and is stored in E.164.
   */
  @ApiProperty({ type: () => MessageConsentDto, required: false })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => MessageConsentDto)
  message_consent?: MessageConsentDto;

  /** Send the customer a copy of the order by email. */
  @IsOptional()
  @IsBoolean()
  customer_requested_order_email_copy?: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  general_note?: string;

  /**
   * The guest's language (BCP 47, such as `fr` or `fr-CI`); without it, the
   * request's Accept-Language. Among the menu's languages, as the storefront
   * resolves it (else the menu's default); ignored by a menu without languages.
   */
  @ApiProperty({ required: false, example: 'fr' })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  @Matches(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, {
    message: 'language must be a BCP 47 language tag such as fr or fr-CI',
  })
  language?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DeliveryDataDto)
  delivery_data?: DeliveryDataDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OnpremiseDataDto)
  onpremise_data?: OnpremiseDataDto;

  /**
   * How the order is handed over; one of the menu's fulfilment modes. When
   * left out it is inferred: `delivery` when a line's item has category
   * `Delivery` or the delivery address is not empty, `dine_in` when the
   * on-premise location is not `_` (nor empty), else `pickup`.
   */
  @ApiProperty({ enum: FULFILMENT_TYPES, required: false })
  @IsOptional()
  @IsIn(FULFILMENT_TYPES)
  fulfilment_type?: FulfilmentType;

  /**
   * An order for later: the start of a slot of the menu's scheduling, as ISO
   * 8601 with an offset. Left out, the order is for now.
   */
  @ApiProperty({ required: false, example: '2026-12-04T19:30:00+01:00' })
  @IsOptional()
  @IsString()
  @Matches(ISO_WITH_OFFSET, {
    message: 'requested_time must be ISO 8601 with an offset, such as 2026-12-04T19:30:00+01:00',
  })
  requested_time?: string;

  /**
   * For card payments: where the provider sends the guest back after the
   * checkout. Must be on one of the service's allowed callback origins (400 otherwise).
   */
  @ApiProperty({ required: false, example: 'https://shop.example/order/complete' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  callback_url?: string;

  /**
   * A discount code of the business, compared without regard to case. It
   * must be enabled, within its dates, for this menu, reached by the items'
   * subtotal and have a redemption left in all and for this email address;
   * else 422 on `discount_code` saying which.
   */
  @ApiProperty({ required: false, example: 'WELCOME10', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  discount_code?: string;

  /**
   * The guest's tip, decimal text (a number is read as its text), at most the
   * items' subtotal and 2 decimals; anything but 0 needs the business to take tips (422).
   */
  @ApiProperty({
    oneOf: [{ type: 'number' }, { type: 'string' }],
    required: false,
    example: '2.50',
  })
  @IsOptional()
  @IsAmount()
  tip_amount?: number | string;

  /**
   * A table's tab token (from the answer that opened the tab): this dine-in
   * order is the party's next round. A guest order for a table whose tab is
   * open, without the tab's token, is refused (409).
   */
  @ApiProperty({ required: false })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  tab_token?: string;

  /** 1 to 100 lines. */
  @ApiProperty({ type: [CartItemDto], minItems: 1, maxItems: MAX_CART_LINES })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CART_LINES)
  @ValidateNested({ each: true })
  @Type(() => CartItemDto)
  cart_items!: CartItemDto[];
}

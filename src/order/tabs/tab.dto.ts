import { ApiProperty, OmitType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { CreatePaymentDto } from '../../payment';
import { GuestOrderResponseDto } from '../dto/guest-order-response.dto';
import { OrderResponseDto } from '../dto/order-response.dto';
import { TAB_STATUSES } from './tab.entity';

export class TabShareResponseDto {
  uuid!: string;
  /** What the share pays, two decimals. */
  @ApiProperty({ example: '14.67' })
  amount!: string;
  /** Tips given with the share's payments, two decimals (not part of the tab's total). */
  @ApiProperty({ example: '0.00' })
  tip!: string;
  @ApiProperty({ enum: ['unpaid', 'paid'] })
  status!: string;
  /** `equal`, `items` or `amount`. */
  split_by!: string;
  /** For a share by items: the lines and quantities it pays; null otherwise. */
  @ApiProperty({ nullable: true, type: 'array', items: { type: 'object' } })
  lines!: Array<{ order_uuid: string; line_uuid: string; quantity: number }> | null;
  /** The payments of the share, oldest first. */
  @ApiProperty({ type: 'array', items: { type: 'object' } })
  payments!: unknown[];
}

/** A table's tab: its rounds (each an order), what they come to, what is paid and due, and its shares. */
export class TabResponseDto {
  uuid!: string;
  business_uuid!: string;
  menu_uuid!: string;
  /** `customer_onpremise_location` of its rounds, as sent. */
  table!: string;
  @ApiProperty({ enum: TAB_STATUSES })
  status!: string;
  @ApiProperty({ type: [OrderResponseDto] })
  rounds!: Array<OrderResponseDto | GuestOrderResponseDto>;
  /** The rounds' totals summed (cancelled and rejected rounds left out), two decimals. */
  @ApiProperty({ example: '44.00' })
  total!: string;
  @ApiProperty({ example: '0.00' })
  paid!: string;
  @ApiProperty({ example: '44.00' })
  due!: string;
  currency!: string | null;
  @ApiProperty({ type: [TabShareResponseDto] })
  shares!: TabShareResponseDto[];
  opened_at!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  closed_at!: string | null;
  /** Why it was closed with money due; null otherwise. */
  close_reason!: string | null;
  /** The party's capability for the tab (rounds, bill, split, paying a share). */
  tab_token!: string;
}

export class PayShareDto {
  /** Money the team collected: `cash` or `bank_transfer` (to the business's own account). */
  @ApiProperty({ enum: ['cash', 'bank_transfer'] })
  @IsIn(['cash', 'bank_transfer'])
  method!: 'cash' | 'bank_transfer';

  /** A tip given with the share, decimal text; not part of the tab's total. */
  @ApiProperty({ required: false, example: '2.00' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,10}(\.\d{1,2})?$/, {
    message: 'tip_amount must be a non-negative decimal string such as "2.00"',
  })
  tip_amount?: string;
}

/**
 * The party pays a share from the tab page: an order page's charge body, or
 * `{"method": "paystack"}` for a card checkout, and a tip.
 */
export class PayShareChargeDto extends OmitType(CreatePaymentDto, ['channel'] as const) {
  /** `paystack` opens a card checkout (then `channel` is left out). */
  @ApiProperty({ enum: ['paystack'], required: false })
  @IsOptional()
  @IsIn(['paystack'])
  method?: 'paystack';

  /** `ussd`, `mobile_money` or `bank_transfer`, as on the order page; needed without `method`. */
  @ApiProperty({ enum: ['ussd', 'mobile_money', 'bank_transfer'], required: false })
  @ValidateIf((body: PayShareChargeDto) => body.method !== 'paystack')
  @IsIn(['ussd', 'mobile_money', 'bank_transfer'])
  channel?: CreatePaymentDto['channel'];

  /** For a card checkout: where Paystack sends the guest back (an allowed callback origin). */
  @ApiProperty({ required: false })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  callback_url?: string;

  /** A tip given with the share, decimal text; charged with it, not part of the tab's total. */
  @ApiProperty({ required: false, example: '1.00' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,10}(\.\d{1,2})?$/, {
    message: 'tip_amount must be a non-negative decimal string such as "1.00"',
  })
  tip_amount?: string;
}

export class ListTabsQueryDto {
  @ApiProperty({ enum: TAB_STATUSES, required: false })
  @IsOptional()
  @IsIn(TAB_STATUSES)
  status?: (typeof TAB_STATUSES)[number];
}

export class CloseTabDto {
  /** Why the tab closes with money due (kept with the tab); needed then. */
  @ApiProperty({ required: false, example: 'Walked out; the manager waived the rest.' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/**
 * `{"by": "equal", "parts": 3}`, `{"by": "items", "shares": [{"lines":
 * [{"order_uuid", "line_uuid", "quantity"}]}]}` or `{"by": "amount",
 * "amounts": ["12.00", …]}`; checked by the service, each fault naming its field.
 */
export class SplitTabDto {
  @ApiProperty({ enum: ['equal', 'items', 'amount'] })
  @IsIn(['equal', 'items', 'amount'])
  by!: 'equal' | 'items' | 'amount';

  /** For `equal`: 2–50 parts. */
  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: 50 })
  @IsOptional()
  parts?: unknown;

  /** For `items`: 1–50 shares, each with its lines. */
  @ApiProperty({ required: false, type: 'array', items: { type: 'object' } })
  @IsOptional()
  shares?: unknown;

  /** For `amount`: 1–50 decimal strings summing to the amount due. */
  @ApiProperty({ required: false, type: 'array', items: { type: 'string' } })
  @IsOptional()
  amounts?: unknown;
}

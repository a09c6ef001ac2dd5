import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { LINE_STATUSES, LineStatus } from '../domain/ticket-status';
import type { Ticket } from '../kitchen.repository';

const toWholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;

export const DOCKET_WIDTHS = [32, 42, 48] as const;

export class TicketLineDto {
  /** The line of this ticket (the path of a line move). */
  line_uuid!: string;
  item_uuid!: string;
  /** The item's title when the order was placed. */
  title_name!: string | null;
  /** The chosen options as the order line keeps them. */
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  options!: Array<Record<string, unknown>>;
  @ApiProperty({ type: 'integer', example: 2 })
  quantity!: number;
  item_note!: string | null;
  /** The allergens the order line recorded of its item and options. */
  @ApiProperty({ type: [String], example: ['milk'] })
  allergens!: string[];
  @ApiProperty({ enum: LINE_STATUSES })
  status!: LineStatus;
}

/** What one station must make for one order (`new`), or stop making (`void`). */
export class TicketResponseDto {
  uuid!: string;
  business_uuid!: string;
  order_uuid!: string;
  @ApiProperty({ example: 'K7Q2M9' })
  order_reference!: string;
  /** The station's key. */
  @ApiProperty({ example: 'grill' })
  station!: string;
  @ApiProperty({ enum: ['new', 'void'] })
  kind!: 'new' | 'void';
  @ApiProperty({ enum: ['dine_in', 'pickup', 'delivery'] })
  fulfilment_type!: string;
  /** The dine-in location as the guest sent it; null otherwise. */
  table!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  requested_time!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  estimated_ready_at!: string | null;
  @ApiProperty({ type: [TicketLineDto] })
  lines!: TicketLineDto[];
  general_note!: string | null;
  /** The slowest line's status; `cancelled` for a `new` ticket of a cancelled order. */
  @ApiProperty({ enum: ['queued', 'preparing', 'ready', 'cancelled'] })
  status!: string;
  @ApiProperty({ type: String, format: 'date-time' })
  created_at!: string;
  /** Dockets served of it so far. */
  @ApiProperty({ type: 'integer', example: 0 })
  printed_count!: number;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export function toTicketResponse(ticket: Ticket): TicketResponseDto {
  return {
    uuid: ticket.uuid,
    business_uuid: ticket.businessUuid,
    order_uuid: ticket.orderUuid,
    order_reference: ticket.orderReference,
    station: ticket.station,
    kind: ticket.kind,
    fulfilment_type: ticket.fulfilmentType,
    table: ticket.tableLabel,
    requested_time: iso(ticket.requestedTime),
    estimated_ready_at: iso(ticket.estimatedReadyAt),
    lines: ticket.lines.map((line) => ({
      line_uuid: line.uuid,
      item_uuid: line.itemUuid,
      title_name: line.titleName,
      options: line.options,
      quantity: line.quantity,
      item_note: line.itemNote,
      allergens: line.allergens,
      status: line.status,
    })),
    general_note: ticket.generalNote,
    status: ticket.status,
    created_at: iso(ticket.createdAt)!,
    printed_count: ticket.printedCount,
  };
}

export class ListTicketsQueryDto {
  /** Only this station's tickets (its key). */
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9_-]{1,32}$/, { message: 'station must be a station key' })
  station?: string;

  /** `open` (default): the kitchen still has work on it; `done`; or `all`. */
  @IsOptional()
  @IsIn(['open', 'done', 'all'], { message: 'status must be open, done or all' })
  @ApiPropertyOptional({ enum: ['open', 'done', 'all'] })
  status?: 'open' | 'done' | 'all';

  /** `meta.cursor` of an earlier answer: only what changed after it, in the order it changed. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  since?: string;

  /** From 1. */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @ApiPropertyOptional({ type: 'integer', example: 1 })
  page?: number;

  /** Default 100, at most 100. */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @Max(100)
  @ApiPropertyOptional({ type: 'integer', example: 100 })
  per_page?: number;
}

export class StreamTicketsQueryDto {
  /** Only this station's tickets (its key). */
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9_-]{1,32}$/, { message: 'station must be a station key' })
  station?: string;
}

export class MoveLineDto {
  /** The line's new status, one step from its current one. */
  @ApiProperty({ enum: LINE_STATUSES, example: 'preparing' })
  @IsIn(LINE_STATUSES, { message: 'status must be queued, preparing or ready' })
  status!: LineStatus;
}

export class DocketQueryDto {
  /** Characters a line: 32 (58 mm paper), 42 (default) or 48 (80 mm). */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsIn(DOCKET_WIDTHS, { message: 'width must be 32, 42 or 48' })
  @ApiPropertyOptional({ enum: DOCKET_WIDTHS, example: 42 })
  width?: 32 | 42 | 48;
}

import { ApiProperty } from '@nestjs/swagger';

/** One kitchen ticket of the order (read it whole through the kitchen's routes). */
export class OrderTicketSummaryDto {
  uuid!: string;
  /** The station's key. */
  @ApiProperty({ example: 'grill' })
  station!: string;
  @ApiProperty({ enum: ['new', 'void'] })
  kind!: 'new' | 'void';
  @ApiProperty({ enum: ['queued', 'preparing', 'ready', 'cancelled'] })
  status!: string;
  @ApiProperty({ type: 'integer', example: 0 })
  printed_count!: number;
  created_at!: string;
}

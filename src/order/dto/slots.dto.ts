import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

export class SlotsQueryDto {
  /** The local day in the business's time zone, `YYYY-MM-DD`. */
  @ApiProperty({ example: '2026-12-04' })
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'date must be a day, YYYY-MM-DD' })
  date!: string;
}

/** A time slot an order for later may be placed for. */
export class SlotDto {
  /** The slot's start, ISO 8601 with the business's offset: send it as `requested_time`. */
  @ApiProperty({ example: '2026-12-04T19:30:00+01:00' })
  start!: string;
  @ApiProperty({ example: '2026-12-04T19:45:00+01:00' })
  end!: string;
  /** Places left under the menu's cap per slot; null when the menu sets no cap. */
  @ApiProperty({ type: 'integer', nullable: true, example: 7 })
  remaining!: number | null;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import { AVAILABILITY_MODES, AvailabilityMode } from '../../entity';

/** The kitchen's switch as the team sets it. */
export class SetAvailabilityDto {
  /** `open`, `busy` (orders take longer) or `paused` (no order for now). */
  @ApiProperty({ enum: AVAILABILITY_MODES, example: 'busy' })
  @IsIn(AVAILABILITY_MODES)
  mode!: AvailabilityMode;

  /** With `busy` only, and required with it: 5–180 minutes added to every new order's prep time. */
  @ApiPropertyOptional({ type: 'integer', minimum: 5, maximum: 180, example: 20 })
  @IsOptional()
  @IsInt()
  @Min(5)
  @Max(180)
  extra_prep_minutes?: number;

  /** When the mode returns to `open` by itself: in the future, at most 12 hours ahead. Absent: until changed. */
  @ApiPropertyOptional({ type: 'string', format: 'date-time', example: '2026-11-26T21:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;
}

/** The kitchen's switch of a business, with who set it last and when. */
export class AvailabilityResponseDto {
  @ApiProperty({ enum: AVAILABILITY_MODES, example: 'busy' })
  mode!: AvailabilityMode;

  /** Minutes added to every new order's prep time; null unless busy. */
  @ApiProperty({ type: 'integer', nullable: true, example: 20 })
  extra_prep_minutes!: number | null;

  /** When the mode returns to `open` by itself; null: until changed. */
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  until!: string | null;

  /** Who made the last change through this route; null when nobody has. */
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  changed_by!: string | null;

  /** When; null when nobody has. */
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  changed_at!: string | null;
}

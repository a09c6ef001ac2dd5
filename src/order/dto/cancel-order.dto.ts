import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The guest's cancellation of a pending order. */
export class CancelOrderDto {
  /** Why, for the owner's notification; at most 500 characters. */
  @ApiProperty({ required: false, example: 'Ordered the wrong size' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '../../http/page-query.dto';
import { ORDER_STATUSES, OrderStatus } from '../domain/order-status';

export class ListOrdersQueryDto extends PageQueryDto {
  @ApiProperty({ enum: ORDER_STATUSES, required: false })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @IsOptional()
  @IsUUID('all')
  business_uuid?: string;

  @IsOptional()
  @IsUUID('all')
  menu_uuid?: string;

  /** Orders placed at or after this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** Orders placed at or before this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class StreamOrdersQueryDto {
  /** Only this business's orders: one the caller owns or works for. */
  @IsOptional()
  @IsUUID('all')
  business_uuid?: string;
}

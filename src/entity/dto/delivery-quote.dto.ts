import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { parsePrice } from '../../common/money';

/** Where a delivery goes: a point (both coordinates) or an area's name, or both. */
export class DeliveryLocationDto {
  /** Latitude of the delivery point, −90 to 90; sent with `longitude`. */
  @ApiPropertyOptional({ minimum: -90, maximum: 90, example: 6.4431 })
  @ValidateIf((body: DeliveryLocationDto) => body.latitude != null || body.longitude != null)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  latitude?: number;

  /** Longitude of the delivery point, −180 to 180; sent with `latitude`. */
  @ApiPropertyOptional({ minimum: -180, maximum: 180, example: 3.4683 })
  @ValidateIf((body: DeliveryLocationDto) => body.latitude != null || body.longitude != null)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  longitude?: number;

  /** The name of the delivery area, compared with a zone's areas without case or surrounding spaces. */
  @ApiPropertyOptional({ minLength: 1, maxLength: 255, example: 'Ikoyi' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  area?: string;
}

/** Which zone a place is in, and what delivering there costs. */
export class DeliveryQuoteDto extends DeliveryLocationDto {
  /** A public menu whose business is public. */
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  menu_uuid!: string;

  /**
   * The items' subtotal so far (decimal text, or a number), for the fee
   * (0 from the zone's `free_above` on) and the shortfall; 0 when absent.
   */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '12000.00' })
  @IsOptional()
  @ValidateBy({
    name: 'isItemsSubtotal',
    validator: {
      validate: (value: unknown) => parsePrice(value) !== null,
      defaultMessage: () =>
        'items_subtotal must be a non-negative amount with at most 2 decimals, such as "12000.00"',
    },
  })
  items_subtotal?: string | number;
}

/** A zone as an order and a quote name it. */
export class DeliveryZoneRefDto {
  @ApiProperty({ example: 'lekki' })
  key!: string;
  @ApiProperty({ example: 'Lekki' })
  title!: string;
}

export class DeliveryQuoteResponseDto {
  /** The first zone of the menu that holds the point or names the area. */
  @ApiProperty({ type: DeliveryZoneRefDto })
  zone!: DeliveryZoneRefDto;
  /** The delivery fee: the zone's, or "0.00" once `items_subtotal` reaches `free_above`. */
  @ApiProperty({ example: '1500.00' })
  fee!: string;
  /** The zone's minimum, else the delivery mode's; null for none. */
  @ApiProperty({ type: 'string', nullable: true, example: '5000.00' })
  minimum_order_amount!: string | null;
  /** From this items' subtotal on (inclusive), delivery is free; null when never. */
  @ApiProperty({ type: 'string', nullable: true, example: '20000.00' })
  free_above!: string | null;
  /** Minutes from the order being ready to it being delivered; null when the zone names none. */
  @ApiProperty({ type: 'integer', nullable: true, example: 45 })
  eta_minutes!: number | null;
  /** How far `items_subtotal` is below the minimum; "0.00" without one or once reached. */
  @ApiProperty({ example: '0.00' })
  shortfall!: string;
}

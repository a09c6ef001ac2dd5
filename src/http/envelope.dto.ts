import { ApiProperty } from '@nestjs/swagger';

export class ErrorDetailDto {
  /** The field at fault, as a dotted path (`extra_data.sort_position`, `cart_items.2.quantity`). */
  field?: string;
  message!: string;
}

export class ErrorInfoDto {
  @ApiProperty({
    enum: [
      'VALIDATION_FAILED',
      'BAD_REQUEST',
      'API_KEY_INVALID',
      'UNAUTHENTICATED',
      'INVALID_CREDENTIALS',
      'FORBIDDEN',
      'NOT_FOUND',
      'CONFLICT',
      'UNPROCESSABLE',
      'PAYLOAD_TOO_LARGE',
      'RATE_LIMITED',
      'INTERNAL',
    ],
  })
  code!: string;

  @ApiProperty({ type: [ErrorDetailDto] })
  details!: ErrorDetailDto[];
}

/** Every refusal: the error envelope with a code and details. */
export class ErrorEnvelopeDto {
  @ApiProperty({ enum: [false] })
  status!: boolean;

  /** One readable sentence. */
  message!: string;

  @ApiProperty({ type: ErrorInfoDto })
  error!: ErrorInfoDto;
}

/** Every successful answer: success, message and `data`, typed per operation. */
export class SuccessEnvelopeDto {
  @ApiProperty({ enum: [true] })
  status!: boolean;

  message!: string;
}

export class PageMetaDto {
  @ApiProperty({ type: 'integer', example: 1 })
  page!: number;
  @ApiProperty({ type: 'integer', example: 100 })
  per_page!: number;
  @ApiProperty({ type: 'integer', example: 240 })
  total!: number;
  @ApiProperty({ type: 'integer', example: 3 })
  last_page!: number;
}

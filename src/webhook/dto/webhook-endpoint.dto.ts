import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '../domain/webhook-events';
import { WebhookEndpointEntity } from '../entities';

const EVENT_LIST_TEXT = WEBHOOK_EVENT_TYPES.join(', ');

export class CreateWebhookDto {
  /**
   * Where events are POSTed: http or https, and (unless the service allows
   * private addresses) a host that resolves to public addresses only.
   */
  @ApiProperty({ example: 'https://pos.example.com/hooks/orders', maxLength: 2048 })
  @IsString()
  @MaxLength(2048)
  url!: string;

  /** The events wanted, one or more of them, each once. */
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['order.created'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, {
    each: true,
    message: `each event must be one of ${EVENT_LIST_TEXT}`,
  })
  events!: WebhookEventType[];

  /** A note for the owner, e.g. "kitchen printer". */
  @ApiPropertyOptional({ example: 'Kitchen printer', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  /** Only this business's orders (one of the caller's businesses); all of them when left out. */
  @ApiPropertyOptional({ format: 'uuid', example: '3f2b8c1e-5d4a-4c1b-9e7f-2a6d8b0c4e11' })
  @IsOptional()
  @IsUUID('all')
  business_uuid?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ example: 'https://pos.example.com/hooks/orders-v2', maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    example: ['order.created', 'order.status_changed'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, {
    each: true,
    message: `each event must be one of ${EVENT_LIST_TEXT}`,
  })
  events?: WebhookEventType[];

  /** An empty string clears it. */
  @ApiPropertyOptional({ example: 'Front desk POS', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  /** Turning an endpoint back on also clears its count of failed deliveries. */
  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookEndpointResponseDto {
  uuid!: string;
  url!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  events!: string[];
  description!: string | null;
  /** Null when the endpoint receives the events of all the caller's businesses. */
  business_uuid!: string | null;
  /** False when turned off by the owner, or by the service after 20 failed deliveries in a row. */
  enabled!: boolean;
  /** Deliveries that ended failed in a row (reset by any success). */
  @ApiProperty({ type: 'integer' })
  consecutive_failures!: number;
  created_at!: string;
  updated_at!: string;
}

/** The endpoint with its signing secret: answered on create only. */
export class CreatedWebhookResponseDto extends WebhookEndpointResponseDto {
  /** The signing secret (`whsec_` + base64). Shown only now; store it. */
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret!: string;
}

export class WebhookSecretResponseDto {
  /** The new signing secret; the previous one no longer signs anything. Shown only now. */
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret!: string;
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function toWebhookEndpointResponse(row: WebhookEndpointEntity): WebhookEndpointResponseDto {
  return {
    uuid: row.uuid,
    url: row.url,
    events: [...row.events],
    description: row.description,
    business_uuid: row.businessUuid,
    enabled: row.enabled,
    consecutive_failures: row.consecutiveFailures,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { NotificationEntity } from '../entities/notification.entity';
import { PageQueryDto } from '../../http/page-query.dto';

export class ListNotificationsQueryDto extends PageQueryDto {
  /** Only the unread ones. */
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  unread?: boolean;
}

export class MarkNotificationsReadDto {
  /** The notifications to mark read; none sent marks all of them. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  uuids?: string[];
}

export class NotificationResponseDto {
  uuid!: string;
  /** What happened, e.g. `order.created`. */
  kind!: string;
  title!: string;
  body!: string;
  /** Details for the client, e.g. `order_uuid` and `order_reference`. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  data!: Record<string, unknown>;
  read_at!: string | null;
  created_at!: string;
}

export class MarkNotificationsReadResponseDto {
  /** How many were unread and are now read. */
  @ApiProperty({ type: 'integer' })
  marked!: number;
  /** How many unread are left. */
  @ApiProperty({ type: 'integer' })
  unread!: number;
}

export function toNotificationResponse(row: NotificationEntity): NotificationResponseDto {
  return {
    uuid: row.uuid,
    kind: row.kind,
    title: row.title,
    body: row.body,
    data: row.data,
    read_at: row.readAt ? new Date(row.readAt).toISOString() : null,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

import { ApiProperty } from '@nestjs/swagger';
import {
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidationOptions,
} from 'class-validator';
import { NotificationSettingEntity } from '../entities/notification-setting.entity';

const MAX_PROVIDERS_BYTES = 16 * 1024;

/** An object or an array, as the clients send `providers`, of at most 16 KiB. */
function IsProviders(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isProviders',
      validator: {
        validate: (value: unknown) =>
          value !== null &&
          typeof value === 'object' &&
          Buffer.byteLength(JSON.stringify(value)) <= MAX_PROVIDERS_BYTES,
        defaultMessage: () => 'providers must be an object or an array of at most 16 KiB',
      },
    },
    options,
  );
}

/** A device's push settings; stored by device_id, replacing what that device stored. */
export class SaveNotificationSettingDto {
  /** Identifies the device; one setting per user and device. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  device_id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  platform?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  label?: string;

  @IsOptional()
  @IsBoolean()
  enable_notification?: boolean;

  /** Push providers and their settings, as the client keeps them. */
  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
    required: false,
  })
  @IsOptional()
  @IsProviders()
  providers?: Record<string, unknown> | unknown[];
}

export class NotificationSettingResponseDto {
  uuid!: string;
  device_id!: string;
  platform!: string | null;
  label!: string | null;
  enable_notification!: boolean;
  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
  })
  providers!: Record<string, unknown> | unknown[];
  created_at!: string;
  updated_at!: string;
}

export function toNotificationSettingResponse(
  row: NotificationSettingEntity,
): NotificationSettingResponseDto {
  return {
    uuid: row.uuid,
    device_id: row.deviceId,
    platform: row.platform,
    label: row.label,
    enable_notification: row.enableNotification,
    providers: row.providers,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

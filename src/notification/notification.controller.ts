import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import {
  ListNotificationsQueryDto,
  MarkNotificationsReadDto,
  MarkNotificationsReadResponseDto,
  NotificationResponseDto,
} from './dto/notification.dto';
import {
  NotificationSettingResponseDto,
  SaveNotificationSettingDto,
} from './dto/notification-setting.dto';
import { NotificationService } from './notification.service';

/** The caller's notifications and device settings; `{user_uuid}` must be the caller (403). */
@ApiTags('notifications')
@SpaceController('core')
export class NotificationController {
  constructor(private readonly notifications: NotificationService) {}

  /**
   * List the caller's notifications
   *
   * @remarks Newest first, paged, with `meta.unread` (how many are unread). `unread=true` lists
   * only unread ones. `{user_uuid}` must be the caller (403).
   */
  @Get('notification/user/:user_uuid')
  @Auth()
  @ApiEnvelope(NotificationResponseDto, {
    isArray: true,
    paged: true,
    extraMeta: { unread: { type: 'integer' } },
  })
  @ApiErrors(400, 403)
  listNotifications(
    @CurrentUser() user: AuthUser,
    @Param('user_uuid') userUuid: string,
    @Query() query: ListNotificationsQueryDto,
  ): Promise<ApiResult<NotificationResponseDto[]>> {
    return this.notifications.listNotifications(user, userUuid, query);
  }

  /**
   * Mark notifications read
   *
   * @remarks Marks the notifications named in `uuids` read, or all of them when none are named;
   * answers how many changed and how many unread are left. `{user_uuid}` must be the caller (403).
   */
  @Post('notification/user/:user_uuid/read')
  @Auth()
  @HttpCode(200)
  @Message('Notifications marked read')
  @ApiEnvelope(MarkNotificationsReadResponseDto)
  @ApiErrors(400, 403)
  markNotificationsRead(
    @CurrentUser() user: AuthUser,
    @Param('user_uuid') userUuid: string,
    @Body() dto: MarkNotificationsReadDto,
  ): Promise<MarkNotificationsReadResponseDto> {
    return this.notifications.markNotificationsRead(user, userUuid, dto);
  }

  /**
   * Save a device's push settings
   *
   * @remarks Stores a device's push settings, replacing what the same `device_id` stored: 201 for
   * a new device, 200 for an update. `{user_uuid}` must be the caller (403).
   */
  @Post('notification-setting/user/:user_uuid')
  @Auth()
  @ApiEnvelope(NotificationSettingResponseDto, { status: 201 })
  @ApiEnvelope(NotificationSettingResponseDto, { status: 200 })
  @ApiErrors(400, 403)
  saveNotificationSetting(
    @CurrentUser() user: AuthUser,
    @Param('user_uuid') userUuid: string,
    @Body() dto: SaveNotificationSettingDto,
  ): Promise<ApiResult<NotificationSettingResponseDto>> {
    return this.notifications.saveNotificationSetting(user, userUuid, dto);
  }

  /**
   * List the caller's device settings
   *
   * @remarks The settings of the caller's devices, most recently saved first. `{user_uuid}` must
   * be the caller (403).
   */
  @Get('notification-setting/user/:user_uuid')
  @Auth()
  @ApiEnvelope(NotificationSettingResponseDto, { isArray: true })
  @ApiErrors(403)
  listNotificationSettings(
    @CurrentUser() user: AuthUser,
    @Param('user_uuid') userUuid: string,
  ): Promise<NotificationSettingResponseDto[]> {
    return this.notifications.listNotificationSettings(user, userUuid);
  }
}

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { ApiError } from '../http/api-error';
import { ApiResult, pageMeta } from '../http/envelope';
import { DEFAULT_PER_PAGE } from '../http/page-query.dto';
import {
  ListNotificationsQueryDto,
  MarkNotificationsReadDto,
  MarkNotificationsReadResponseDto,
  NotificationResponseDto,
  toNotificationResponse,
} from './dto/notification.dto';
import {
  NotificationSettingResponseDto,
  SaveNotificationSettingDto,
  toNotificationSettingResponse,
} from './dto/notification-setting.dto';
import { NewNotification, NotificationRepository } from './notification.repository';

/** The caller's notifications and push settings; `{user_uuid}` must be the caller. */
@Injectable()
export class NotificationService {
  constructor(private readonly notifications: NotificationRepository) {}

  async listNotifications(
    user: AuthUser,
    userUuid: string,
    query: ListNotificationsQueryDto,
  ): Promise<ApiResult<NotificationResponseDto[]>> {
    this.assertSelf(user, userUuid);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const { rows, total } = await this.notifications.list(
      user.uuid,
      query.unread === true,
      page,
      perPage,
    );
    const unread = await this.notifications.countUnread(user.uuid);
    return new ApiResult(rows.map(toNotificationResponse), undefined, {
      ...pageMeta(page, perPage, total),
      unread,
    });
  }

  async markNotificationsRead(
    user: AuthUser,
    userUuid: string,
    dto: MarkNotificationsReadDto,
  ): Promise<MarkNotificationsReadResponseDto> {
    this.assertSelf(user, userUuid);
    const marked = await this.notifications.markRead(
      user.uuid,
      dto.uuids?.map((uuid) => uuid.toLowerCase()),
    );
    return { marked, unread: await this.notifications.countUnread(user.uuid) };
  }

  async saveNotificationSetting(
    user: AuthUser,
    userUuid: string,
    dto: SaveNotificationSettingDto,
  ): Promise<ApiResult<NotificationSettingResponseDto>> {
    this.assertSelf(user, userUuid);
    const { setting, inserted } = await this.notifications.upsertSetting(user.uuid, {
      deviceId: dto.device_id,
      platform: dto.platform,
      label: dto.label,
      enableNotification: dto.enable_notification,
      providers: dto.providers,
    });
    return new ApiResult(
      toNotificationSettingResponse(setting),
      inserted ? 'Notification setting saved' : 'Notification setting updated',
      undefined,
      inserted ? 201 : 200,
    );
  }

  async listNotificationSettings(
    user: AuthUser,
    userUuid: string,
  ): Promise<NotificationSettingResponseDto[]> {
    this.assertSelf(user, userUuid);
    return (await this.notifications.listSettings(user.uuid)).map(toNotificationSettingResponse);
  }

  /** Adds a notification to a user's inbox inside the caller's transaction. */
  async notify(manager: EntityManager, notification: NewNotification): Promise<void> {
    await this.notifications.insert(manager, notification);
  }

  /** A path naming another user is refused (IDOR), whatever the rest of the request. */
  private assertSelf(user: AuthUser, userUuid: string): void {
    if (userUuid.toLowerCase() !== user.uuid.toLowerCase()) {
      throw ApiError.forbidden('You may only act on your own notifications and settings.');
    }
  }
}

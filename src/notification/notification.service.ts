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
import { AccessPolicy } from '../team';

/** The caller's notifications and push settings; `{user_uuid}` must be the caller. */
@Injectable()
export class NotificationService {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly access: AccessPolicy,
  ) {}

  async listNotifications(
    user: AuthUser,
    userUuid: string,
    query: ListNotificationsQueryDto,
  ): Promise<ApiResult<NotificationResponseDto[]>> {
    this.assertSelf(user, userUuid);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const readable = await this.readableBusinesses(user);
    const { rows, total } = await this.notifications.list(
      user.uuid,
      readable,
      query.unread === true,
      page,
      perPage,
    );
    const unread = await this.notifications.countUnread(user.uuid, readable);
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
    const readable = await this.readableBusinesses(user);
    const marked = await this.notifications.markRead(
      user.uuid,
      readable,
      dto.uuids?.map((uuid) => uuid.toLowerCase()),
    );
    return { marked, unread: await this.notifications.countUnread(user.uuid, readable) };
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

  /**
   * The businesses whose notifications the user reads: those whose orders
   * they may read now (their own, and those of an active membership whose
   * role allows it), asked at every request, so a removed member or a
   * lowered role loses them at once.
   */
  private readableBusinesses(user: AuthUser): Promise<string[]> {
    return this.access.businessesFor(user.uuid, 'order.read');
  }

  /** A path naming another user is refused (IDOR), whatever the rest of the request. */
  private assertSelf(user: AuthUser, userUuid: string): void {
    if (userUuid.toLowerCase() !== user.uuid.toLowerCase()) {
      throw ApiError.forbidden('You may only act on your own notifications and settings.');
    }
  }
}

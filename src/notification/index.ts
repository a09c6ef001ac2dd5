/*
 * The notification module's front door: what other modules may use of it.
 */
import { NotificationSettingEntity } from './entities/notification-setting.entity';
import { NotificationEntity } from './entities/notification.entity';

export { NotificationModule } from './notification.module';
export { NotificationRepository } from './notification.repository';
export type { NewNotification } from './notification.repository';
export { NotificationService } from './notification.service';
export { NotificationEntity, NotificationSettingEntity };

/** The notification module's tables, registered with the database by the composition root. */
export const NOTIFICATION_ENTITIES = [NotificationEntity, NotificationSettingEntity];

import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { maskPhone } from '../common/phone-number';
import { NotificationService } from '../notification';
import { MessageChannel } from '../order';
import { OutboxService } from '../outbox/outbox.service';
import {
  GuestMessageSettings,
  MessageEvent,
  monthBounds,
  monthIn,
  timeZoneOf,
} from './domain/guest-message-settings';
import { BusinessRow, GuestMessageRepository } from './guest-message.repository';
import { MessageProviders } from './providers/message-providers';

/** The outbox kind of guest messages: one row per message, its provider the receiver. */
export const GUEST_MESSAGE_OUTBOX_KIND = 'guest_message';

/** What one message to write says: to whom, about what, and its facts. */
export interface MessageToQueue {
  business: BusinessRow;
  settings: GuestMessageSettings;
  orderUuid: string;
  event: MessageEvent;
  channel: MessageChannel;
  phone: string;
  language: string;
  parameters: string[];
  fallback: boolean;
}

/**
 * Writes a guest message in the caller's transaction: a `stopped` row for a
 * number that asked for no more, a `skipped_limit` row past the business's
 * monthly limit (its owner told once a month), else a `queued` row and its
 * outbox row. The unique (order, event, channel) makes a second writer of
 * the same message write nothing.
 */
@Injectable()
export class GuestMessageQueue {
  private readonly logger = new Logger('GuestMessages');

  constructor(
    private readonly repository: GuestMessageRepository,
    private readonly outbox: OutboxService,
    private readonly providers: MessageProviders,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
  ) {}

  async write(manager: EntityManager, message: MessageToQueue): Promise<string | null> {
    const { business, settings } = message;
    const now = this.clock.now();
    const row = {
      businessUuid: business.uuid,
      orderUuid: message.orderUuid,
      event: message.event,
      channel: message.channel,
      phone: message.phone,
      language: message.language,
      parameters: message.parameters,
      fallback: message.fallback,
    };
    // R104: a stopped number gets no message from this business, for good.
    if (await this.repository.isStopped(manager, business.uuid, message.phone)) {
      return this.repository.insertMessage(manager, { ...row, status: 'stopped' }, now);
    }
    if (settings.monthlyLimit !== null) {
      // R105: past the monthly limit nothing is sent; the owner hears of it once a month.
      await this.repository.lockBusiness(manager, business.uuid);
      const zone = timeZoneOf(business.extraData);
      const month = monthIn(now, zone);
      const { start, end } = monthBounds(month, zone);
      const used = await this.repository.countedBetween(manager, business.uuid, start, end);
      if (used >= settings.monthlyLimit) {
        const uuid = await this.repository.insertMessage(
          manager,
          { ...row, status: 'skipped_limit' },
          now,
        );
        if (await this.repository.insertLimitNotice(manager, business.uuid, month)) {
          await this.notifications.notify(manager, {
            userUuid: business.ownedBy,
            kind: 'guest_messages.limit_reached',
            title: 'Guest messages paused for this month',
            body: `${business.titleName ?? 'Your business'} reached its limit of ${settings.monthlyLimit} guest messages for ${month}; guests get no more messages until next month or a higher monthly_limit.`,
            data: { business_uuid: business.uuid, month, monthly_limit: settings.monthlyLimit },
          });
        }
        return uuid;
      }
    }
    const uuid = await this.repository.insertMessage(manager, { ...row, status: 'queued' }, now);
    if (uuid) {
      const provider = this.providers.of(message.channel);
      await this.outbox.enqueueAt(
        manager,
        GUEST_MESSAGE_OUTBOX_KIND,
        { message_uuid: uuid },
        undefined,
        provider.name,
      );
      this.logger.debug(
        `Guest message ${uuid} (${message.event}, ${message.channel}) queued for ${maskPhone(message.phone)}`,
      );
    }
    return uuid;
  }
}

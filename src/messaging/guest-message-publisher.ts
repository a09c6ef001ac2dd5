import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { EventBus } from '../database/event-bus';
import { OrderEntity, OrderTokens } from '../order';
import {
  eventOfStatus,
  MessageEvent,
  readGuestMessageSettings,
  timeZoneOf,
} from './domain/guest-message-settings';
import {
  guestOrderLink,
  languageOf,
  MessageLanguage,
  readyTimeText,
  refundText,
} from './domain/message-templates';
import { BusinessRow, GuestMessageRepository } from './guest-message.repository';
import { GuestMessageQueue } from './guest-message-queue';

/**
 * Listens to the order's events, inside their transactions: keeps a guest's
 * consent at placement, and at each status move the business chose writes
 * the guest's message (GuestMessageQueue), so a move that rolls back takes
 * its message with it, and a move made once gives one message.
 */
// R100: no consent, no message. R102: one message per order and event.
@Injectable()
export class GuestMessagePublisher implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly repository: GuestMessageRepository,
    private readonly queue: GuestMessageQueue,
    private readonly tokens: OrderTokens,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.bus.on('order.message_consent', (consent, tx) =>
      this.repository.insertConsent(tx.manager, consent),
    );
    this.bus.on('order.changed', async ({ order, changes, previousStatus }, tx) => {
      if (!changes.includes('status') || previousStatus === order.status) return;
      const event = eventOfStatus(order.status);
      if (event) await this.onEvent(tx.manager, order, event);
    });
  }

  private async onEvent(manager: EntityManager, order: OrderEntity, event: MessageEvent) {
    const consent = await this.repository.consentOf(order.uuid, manager);
    if (!consent) return;
    const business = await this.repository.business(manager, order.businessUuid);
    const settings = business && readGuestMessageSettings(business.extraData);
    if (!business || !settings || !settings.events.includes(event)) return;
    // The guest's channel when the business offers it, else the business's first.
    const channel =
      settings.channels.find((offered) => offered === consent.channel) ?? settings.channels[0];
    const language = languageOf(order.language);
    await this.queue.write(manager, {
      business,
      settings,
      orderUuid: order.uuid,
      event,
      channel,
      phone: consent.phone,
      language,
      parameters: this.parametersOf(order, business, event, language),
      fallback: false,
    });
  }

  /** The template's body parameters: the business, the reference, the event's fact, the link last. */
  private parametersOf(
    order: OrderEntity,
    business: BusinessRow,
    event: MessageEvent,
    language: MessageLanguage,
  ): string[] {
    const pattern =
      this.config.guestMessages.guestOrderUrl ??
      `${this.config.frontUrl}/app/{business_meta_key}/order/{order_uuid}?token={order_token}`;
    const link = guestOrderLink(pattern, {
      business_meta_key: business.metaKey ?? '',
      order_uuid: order.uuid,
      order_token: this.tokens.tokenFor(order.uuid),
    });
    const head = [business.titleName ?? '', order.orderReference];
    if (event === 'accepted') {
      return [
        ...head,
        readyTimeText(order.estimatedReadyAt, timeZoneOf(business.extraData), language),
        link,
      ];
    }
    if (event === 'rejected') {
      return [...head, refundText(order.amountPaid, order.currency, language), link];
    }
    return [...head, link];
  }
}

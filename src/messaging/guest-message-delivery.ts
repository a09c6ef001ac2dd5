import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { maskDigitRuns, maskPhone } from '../common/phone-number';
import { MessageChannel } from '../order';
import { OUTBOX_MAX_ATTEMPTS, PermanentDeliveryError } from '../outbox/outbox-retry';
import { OutboxWorker } from '../outbox/outbox.worker';
import { MessageEvent, readGuestMessageSettings } from './domain/guest-message-settings';
import { MessageLanguage, renderMessage } from './domain/message-templates';
import { GuestMessageRow, GuestMessageRepository } from './guest-message.repository';
import { GUEST_MESSAGE_OUTBOX_KIND, GuestMessageQueue } from './guest-message-queue';
import { MessageProviders } from './providers/message-providers';

/**
 * Sends guest messages for the outbox worker, one row per message. A
 * message is sent only while it is queued, so a row taken again after it was
 * recorded sends nothing. A provider's refusal for good (the number cannot
 * receive it) fails the message and tries the business's next channel once;
 * a timeout or 5xx is retried with the outbox's back-off, and after its last
 * attempt the message is failed.
 */
// R103: retried with back-off; the next channel once on a failure for good.
@Injectable()
export class GuestMessageDelivery implements OnModuleInit {
  private readonly logger = new Logger('GuestMessages');

  constructor(
    private readonly worker: OutboxWorker,
    private readonly repository: GuestMessageRepository,
    private readonly providers: MessageProviders,
    private readonly queue: GuestMessageQueue,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.worker.registerHandler(GUEST_MESSAGE_OUTBOX_KIND, (payload, row) =>
      this.deliver(payload, row.attempts),
    );
  }

  async deliver(payload: Record<string, unknown>, attempts: number): Promise<void> {
    const uuid = payload.message_uuid;
    if (typeof uuid !== 'string')
      throw new PermanentDeliveryError('guest message payload needs message_uuid');
    const message = await this.repository.find(uuid);
    if (!message || message.status !== 'queued') return;
    // A stop that came after the message was queued holds too.
    const stopped = await this.repository.transaction(async (manager) => {
      if (!(await this.repository.isStopped(manager, message.businessUuid, message.phone))) {
        return false;
      }
      await this.repository.markStopped(manager, message.uuid, this.clock.now());
      return true;
    });
    if (stopped) return;
    const provider = this.providers.of(message.channel as MessageChannel);
    const outcome = await provider.send({
      to: message.phone,
      text: renderMessage(
        message.event as MessageEvent,
        message.language as MessageLanguage,
        message.parameters,
      ),
      template: { name: message.event, language: message.language, parameters: message.parameters },
    });
    const to = maskPhone(message.phone);
    if (!outcome.ok) {
      // A provider's refusal may quote the number: it is stored and logged masked.
      outcome.error = maskDigitRuns(outcome.error);
    }
    if (outcome.ok) {
      await this.repository.markSent(
        message.uuid,
        provider.name,
        outcome.providerMessageId,
        this.clock.now(),
      );
      return;
    }
    if (outcome.permanent || attempts >= OUTBOX_MAX_ATTEMPTS) {
      this.logger.warn(
        `Guest message ${message.uuid} to ${to} by ${provider.name} failed for good: ${outcome.error}`,
      );
      await this.failForGood(message, provider.name, outcome.error, outcome.permanent);
      return;
    }
    await this.repository.noteError(message.uuid, provider.name, outcome.error, this.clock.now());
    // The outbox retries the row with its back-off.
    throw new Error(`${provider.name}: ${outcome.error} (to ${to})`);
  }

  /**
   * Fails the message; when the number cannot receive it on this channel,
   * writes the same message on the business's next channel, once.
   */
  async failForGood(
    message: GuestMessageRow,
    provider: string,
    error: string,
    tryNextChannel: boolean,
    manager?: EntityManager,
  ): Promise<void> {
    const work = async (tx: EntityManager) => {
      const moved = await this.repository.move(
        tx,
        message.uuid,
        'failed',
        { provider, error },
        this.clock.now(),
      );
      if (!moved || !tryNextChannel || message.fallback) return;
      await this.fallBack(tx, message);
    };
    await (manager ? work(manager) : this.repository.transaction(work));
  }

  private async fallBack(manager: EntityManager, message: GuestMessageRow): Promise<void> {
    const business = await this.repository.business(manager, message.businessUuid);
    const settings = business && readGuestMessageSettings(business.extraData);
    if (!business || !settings) return;
    const at = settings.channels.indexOf(message.channel as MessageChannel);
    const next =
      settings.channels.find((channel, index) => index > at && channel !== message.channel) ??
      settings.channels.find((channel) => channel !== message.channel);
    if (!next) return;
    await this.queue.write(manager, {
      business,
      settings,
      orderUuid: message.orderUuid,
      event: message.event as MessageEvent,
      channel: next,
      phone: message.phone,
      language: message.language,
      parameters: message.parameters,
      fallback: true,
    });
  }
}

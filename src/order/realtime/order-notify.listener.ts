import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PgNotifications } from '../../database/pg-notifications';
import { CHANNEL_OF, parseOrderStreamEvent } from './order-stream-event';
import { OrderStreamHub } from './order-stream.hub';

/**
 * Fan-out across processes: on a PostgreSQL server every
 * process hears the order events NOTIFYed by any of them and hands them to
 * its own hub. NOTIFY is sent inside the writing transaction, so PostgreSQL
 * delivers it only at commit and never for a rollback. On the embedded
 * database the one process publishes to its hub after commit itself.
 * Events sent while the listening connection is being re-established are
 * missed; the client reloads the inbox when its EventSource reconnects.
 */
@Injectable()
export class OrderNotifyListener implements OnModuleInit {
  private readonly logger = new Logger('OrderStream');

  constructor(
    private readonly notifications: PgNotifications,
    private readonly hub: OrderStreamHub,
  ) {}

  /** Listening before the app answers, so no order placed after start-up is missed. */
  async onModuleInit(): Promise<void> {
    for (const channel of Object.values(CHANNEL_OF)) {
      await this.notifications.subscribe(channel, (payload) => {
        const event = parseOrderStreamEvent(payload);
        if (!event) {
          this.logger.warn(`Ignoring a malformed event on channel ${channel}`);
          return;
        }
        this.hub.deliver(event);
      });
    }
  }
}

import { Injectable } from '@nestjs/common';
import { UserContact, UserContacts } from '../account';
import { Transaction } from '../database/event-bus';
import { NotificationRepository } from '../notification';
import { OutboxService } from '../outbox/outbox.service';
import { OrderResponseDto } from './dto/order-response.dto';
import { OrderEntity } from './entities';
import { businessContact, customerCopyMail, ownerAlertMail } from './order-mails';
import { PlacementState } from './placement-guards';

// R22: the server notifies the owner.
/** What a placed order tells the business (and the guest who asked for a copy), in the placement's transaction. */
@Injectable()
export class PlacementNotices {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly outbox: OutboxService,
    private readonly userContacts: UserContacts,
  ) {}

  /**
   * Issues the read of the owner's address as the placement begins, without
   * waiting for it, so it leaves with the order's insert; tellTheBusiness
   * takes its answer. Its failure is the transaction's to report (a
   * placement refused before then leaves it unused), so it is caught here.
   */
  readOwnerAhead(tx: Transaction, ownerUuid: string): Promise<UserContact | null> {
    const owner = this.userContacts.contactOf(tx.manager, ownerUuid);
    owner.catch(() => undefined);
    return owner;
  }

  /** The owner's (and team's) notification, the owner's mail and the guest's copy, with the order. */
  async tellTheBusiness(
    tx: Transaction,
    answer: OrderResponseDto,
    stored: OrderEntity,
    state: PlacementState,
    /** The owner's address, read as the placement began (readOwnerAhead). */
    ownerAhead: Promise<UserContact | null>,
  ): Promise<void> {
    const { manager } = tx;
    const contact = businessContact(state.orderable.business, state.orderable.menu);
    const currencyText = answer.currency ? ` ${answer.currency}` : '';
    const count = answer.items.reduce((sum, line) => sum + line.quantity, 0);
    await this.notifications.insert(manager, {
      userUuid: stored.ownerUuid,
      kind: 'order.created',
      title: `New order ${answer.order_reference}`,
      body: `${count} item${count === 1 ? '' : 's'}, total ${answer.amount}${currencyText}, at ${contact.name}`,
      data: {
        order_uuid: answer.uuid,
        order_reference: answer.order_reference,
        business_uuid: answer.business_uuid,
        menu_uuid: answer.menu_uuid,
        amount: answer.amount,
        currency: answer.currency,
      },
    });
    const owner = await ownerAhead;
    if (owner) await this.outbox.enqueueMail(manager, ownerAlertMail(answer, contact, owner.email));
    if (answer.customer_requested_order_email_copy) {
      await this.outbox.enqueueMail(manager, customerCopyMail(answer, contact));
    }
  }
}

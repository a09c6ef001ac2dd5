import type { MailMessage } from '../outbox/outbox.service';
import type { OrderEntity } from '../order';

/** Header values must stay on one line. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

/**
 * The guest's copy of the news that nobody accepted their order in time
 * (sent only to a guest who asked for copies): what happened and, when they
 * paid online, that the money goes back.
 */
export function lateOrderMail(order: OrderEntity, businessName: string | null): MailMessage {
  const name = businessName ?? 'the restaurant';
  const paid = Number(order.amountPaid) > Number(order.amountRefunded);
  return {
    to: order.customerEmailAddress,
    subject: oneLine(`Your order ${order.orderReference} at ${name} was not accepted`),
    text: [
      `${name} did not accept your order ${order.orderReference} in time, so it was cancelled.`,
      '',
      paid
        ? `What you paid online (${order.amountPaid}${order.currency ? ` ${order.currency}` : ''}) is refunded in full to the way you paid; banks take a few days to show it.`
        : 'Nothing was charged for it.',
      '',
      'We are sorry. You are welcome to order again.',
    ].join('\n'),
  };
}

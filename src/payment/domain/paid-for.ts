/**
 * What a payment pays: an order, or a share of a table's tab. Every
 * change of a payment takes the lock of what it pays (the uuid of the order
 * or of the share), so the payments of one order, or of one share, change
 * one at a time.
 */
export function lockKeyOf(payment: { orderUuid: string | null; shareUuid: string | null }): string {
  const key = payment.orderUuid ?? payment.shareUuid;
  if (!key) throw new Error('A payment pays an order or a share of a tab');
  return key;
}

/**
 * The order of a payment being refunded. Refunds go through an order's
 * refund, which takes only that order's payments: a share's payment never
 * reaches here; should one, it is refused rather than misfiled.
 */
export function orderOf(payment: { uuid: string; orderUuid: string | null }): string {
  if (!payment.orderUuid) {
    throw new Error(`Payment ${payment.uuid} pays a tab's share, which no provider reports on`);
  }
  return payment.orderUuid;
}

import type { FakeRefund, FakeTransaction } from './fake-paystack';

/*
 * The Refund API of the fake Paystack, as Paystack documents it: `POST
 * /refund` with `{ transaction, amount? }` (the charge's id or reference,
 * the whole rest when no amount is given) and `GET /refund?transaction=`
 * (List Refunds). Answers are the `{ status, message, data }` envelope.
 */

export type RefundAnswer = { status: number; body: Record<string, unknown> };

/**
 * The paid transaction a Refund call names and the amount to refund, or the
 * 400 Paystack answers when it names none or asks for more than is left.
 */
export function refundable(
  transactions: Iterable<FakeTransaction>,
  body: any,
): { transaction: FakeTransaction; amount: number } | RefundAnswer {
  const transaction = [...transactions].find(
    (t) => t.reference === body?.transaction || String(t.id) === String(body?.transaction),
  );
  if (!transaction || transaction.status !== 'success') {
    return { status: 400, body: { status: false, message: 'Transaction not found or not paid' } };
  }
  const amount =
    body.amount === undefined ? transaction.amount - transaction.refunded : body.amount;
  if (
    !Number.isInteger(amount) ||
    amount <= 0 ||
    amount > transaction.amount - transaction.refunded
  ) {
    return {
      status: 400,
      body: { status: false, message: 'Refund amount cannot be greater than transaction amount' },
    };
  }
  return { transaction, amount };
}

/** The answer to a Refund call that made `refund` of `transaction`. */
export function refundQueued(transaction: FakeTransaction, refund: FakeRefund) {
  return {
    status: true,
    message: 'Refund has been queued for processing',
    data: {
      transaction: {
        id: transaction.id,
        reference: transaction.reference,
        amount: transaction.amount,
      },
      amount: refund.amount,
      currency: transaction.currency,
      status: 'pending',
      id: refund.id,
    },
  };
}

/** List Refunds, filtered by `transaction` (the charge's id or reference) in `url`. */
export function listRefunds(refunds: readonly FakeRefund[], url: string) {
  const wanted = new URL(url, 'http://fake').searchParams.get('transaction');
  const listed = refunds.filter(
    (refund) => !wanted || String(refund.transaction) === wanted || refund.reference === wanted,
  );
  return {
    status: true,
    message: 'Refunds retrieved',
    data: listed.map((refund) => ({
      id: refund.id,
      transaction: refund.transaction,
      amount: refund.amount,
      currency: refund.currency,
      status: refund.status,
    })),
    meta: { total: listed.length, page: 1, perPage: 100 },
  };
}

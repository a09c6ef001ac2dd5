import { Counter } from 'prom-client';

/**
 * Payment outcomes by `result`: checkout_opened, checkout_failed, paid,
 * mismatch, failed, refunded. Created once per process in the default registry.
 */
export const paymentsTotal = new Counter({
  name: 'payments_total',
  help: 'Payment outcomes, by result',
  labelNames: ['result'] as const,
});

import { Counter } from 'prom-client';

/**
 * Webhook attempts by result: `succeeded`, `retry` (failed, another attempt
 * scheduled) or `failed` (failed with none left). Created once per process in
 * the default registry, which /metrics exposes.
 */
export const webhookDeliveriesTotal = new Counter({
  name: 'webhook_deliveries_total',
  help: 'Outbound webhook delivery attempts by result (succeeded, retry, failed).',
  labelNames: ['result'] as const,
});

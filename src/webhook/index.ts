/*
 * The webhook module's front door: what other modules may use of it.
 */
export { WebhookModule } from './webhook.module';
export { WEBHOOK_ENTITIES } from './entities';

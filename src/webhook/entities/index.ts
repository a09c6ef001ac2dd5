import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';

export { WebhookDeliveryEntity, WebhookEndpointEntity, WebhookEventEntity };
export type { WebhookDeliveryStatus } from './webhook-delivery.entity';

/** The webhook module's tables, collected by the composition root (src/entities.ts). */
export const WEBHOOK_ENTITIES = [WebhookEndpointEntity, WebhookEventEntity, WebhookDeliveryEntity];

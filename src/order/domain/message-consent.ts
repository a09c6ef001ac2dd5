/** The channels a guest may consent to order messages on. */
export const MESSAGE_CHANNELS = ['whatsapp', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/**
 * A guest consented to order messages at placement, published in the
 * placement's transaction (after the order is stored): the guest-message
 * module keeps the consent with its time. `phone` is the E.164 number.
 */
export interface OrderMessageConsent {
  orderUuid: string;
  businessUuid: string;
  channel: MessageChannel;
  phone: string;
  consentedAt: Date;
}

declare module '../../database/event-bus' {
  interface AppEvents {
    'order.message_consent': OrderMessageConsent;
  }
}

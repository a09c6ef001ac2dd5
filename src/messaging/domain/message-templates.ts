import { MessageEvent } from './guest-message-settings';

export const MESSAGE_LANGUAGES = ['en', 'fr'] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

/** The order's language (`fr`, `fr-CI` → fr), English for anything without a template. */
export function languageOf(language: unknown): MessageLanguage {
  return typeof language === 'string' && /^fr(\b|-|_)/i.test(language) ? 'fr' : 'en';
}

/**
 * The text of each event's message, `{{1}}`… standing for its body
 * parameters in order: the business, the order reference, the event's own
 * fact (the ready time; the refund) where it has one, and the link last.
 * These are the texts of the WhatsApp templates (`order_<event>`) to register
 * with Meta, and the SMS text.
 */
// R102: one template per event and language, the link the last parameter.
export const MESSAGE_TEMPLATES: Record<MessageEvent, Record<MessageLanguage, string>> = {
  accepted: {
    en: '{{1}} accepted your order {{2}}. It should be ready at {{3}}. Follow it: {{4}}',
    fr: '{{1}} a accepté votre commande {{2}}. Elle devrait être prête à {{3}}. Suivez-la : {{4}}',
  },
  ready: {
    en: 'Your order {{2}} at {{1}} is ready. Details: {{3}}',
    fr: 'Votre commande {{2}} chez {{1}} est prête. Détails : {{3}}',
  },
  out_for_delivery: {
    en: 'Your order {{2}} from {{1}} is on its way. Follow it: {{3}}',
    fr: 'Votre commande {{2}} de {{1}} est en route. Suivez-la : {{3}}',
  },
  rejected: {
    en: '{{1}} could not take your order {{2}}. {{3}} Details: {{4}}',
    fr: '{{1}} n’a pas pu prendre votre commande {{2}}. {{3}} Détails : {{4}}',
  },
};

/** The message in words: the template with its parameters filled in. */
export function renderMessage(
  event: MessageEvent,
  language: MessageLanguage,
  parameters: readonly string[],
): string {
  return MESSAGE_TEMPLATES[event][language].replace(
    /\{\{(\d+)\}\}/g,
    (_, index: string) => parameters[Number(index) - 1] ?? '',
  );
}

/** The ready time as the guest reads it: `14:30` in the business's zone, or "soon". */
export function readyTimeText(at: Date | null, zone: string, language: MessageLanguage): string {
  if (!at) return language === 'fr' ? 'bientôt' : 'soon';
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** What a rejected order's guest is told of their money. */
export function refundText(
  amountPaid: string,
  currency: string | null,
  language: MessageLanguage,
): string {
  const paid = Number(amountPaid) > 0;
  const money = `${amountPaid}${currency ? ` ${currency}` : ''}`;
  if (language === 'fr') {
    return paid ? `Votre paiement de ${money} vous est remboursé.` : 'Rien ne vous a été débité.';
  }
  return paid ? `Your payment of ${money} is being refunded.` : 'Nothing was charged.';
}

/** The guest's order page link from the configured pattern. */
export function guestOrderLink(
  pattern: string,
  values: { business_meta_key: string; order_uuid: string; order_token: string },
): string {
  return pattern.replace(/\{(business_meta_key|order_uuid|order_token)\}/g, (_, name: string) =>
    encodeURIComponent(values[name as keyof typeof values]),
  );
}

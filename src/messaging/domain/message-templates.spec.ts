import { MESSAGE_EVENTS } from './guest-message-settings';
import {
  guestOrderLink,
  languageOf,
  MESSAGE_TEMPLATES,
  readyTimeText,
  refundText,
  renderMessage,
} from './message-templates';

describe('message templates', () => {
  it('has every event in English and French, the link the last parameter', () => {
    for (const event of MESSAGE_EVENTS) {
      for (const language of ['en', 'fr'] as const) {
        const text = MESSAGE_TEMPLATES[event][language];
        const numbers = [...text.matchAll(/\{\{(\d+)\}\}/g)].map((match) => Number(match[1]));
        const last = Math.max(...numbers);
        expect(text.trimEnd().endsWith(`{{${last}}}`)).toBe(true);
        expect(new Set(numbers).size).toBe(last);
      }
    }
  });

  it('renders the French text for a French order', () => {
    expect(languageOf('fr-CI')).toBe('fr');
    expect(languageOf('en')).toBe('en');
    expect(languageOf(undefined)).toBe('en');
    expect(renderMessage('ready', 'fr', ['Chez Kemi', 'K7Q2', 'https://x.example/o'])).toBe(
      'Votre commande K7Q2 chez Chez Kemi est prête. Détails : https://x.example/o',
    );
  });

  it('gives the ready time in the business’s zone, and the refund in words', () => {
    expect(readyTimeText(new Date('2026-11-26T17:05:00Z'), 'Africa/Lagos', 'en')).toBe('18:05');
    expect(readyTimeText(null, 'UTC', 'fr')).toBe('bientôt');
    expect(refundText('12.50', 'NGN', 'en')).toBe('Your payment of 12.50 NGN is being refunded.');
    expect(refundText('0.00', 'NGN', 'en')).toBe('Nothing was charged.');
  });

  it('fills the link pattern', () => {
    expect(
      guestOrderLink('https://s.example/{business_meta_key}/o/{order_uuid}?t={order_token}', {
        business_meta_key: 'kemi',
        order_uuid: 'u-1',
        order_token: 'a/b',
      }),
    ).toBe('https://s.example/kemi/o/u-1?t=a%2Fb');
  });
});

import { GuestMessagesConfig } from '../../config/config';
import {
  callProvider,
  MessageProvider,
  OutgoingMessage,
  retryable,
  SendOutcome,
} from './message-provider';

/**
 * WhatsApp's error codes that say this number cannot receive the message:
 * 131026 (undeliverable: no WhatsApp account, an old client), 131030 (not on
 * the test number's allowed list), 131021 (the recipient is the sender).
 * Others (rate limits, 5xx, a template not yet approved) are not the number's fault.
 */
// R103: a number that cannot receive the message fails for good; the next channel is tried.
export const WHATSAPP_UNDELIVERABLE = new Set([131026, 131030, 131021]);

/**
 * WhatsApp Cloud API: `POST {base}/{phone_number_id}/messages` with a Bearer
 * token and a template message (name, language, body parameters). Its answer
 * names the message `wamid.…` in `messages[0].id`; a refusal is
 * `{ error: { code, message } }`.
 */
export class WhatsAppCloudProvider implements MessageProvider {
  readonly name = 'whatsapp';
  readonly channel = 'whatsapp' as const;

  constructor(
    private readonly settings: NonNullable<GuestMessagesConfig['whatsapp']>,
    private readonly timeoutMs: number,
  ) {}

  async send(message: OutgoingMessage): Promise<SendOutcome> {
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: message.to.replace(/^\+/, ''),
      type: 'template',
      template: {
        name: `${this.settings.templatePrefix}${message.template.name}`,
        language: { code: message.template.language },
        components: [
          {
            type: 'body',
            parameters: message.template.parameters.map((text) => ({ type: 'text', text })),
          },
        ],
      },
    };
    const answer = await callProvider(
      `${this.settings.baseUrl}/${encodeURIComponent(this.settings.phoneNumberId)}/messages`,
      {
        headers: {
          authorization: `Bearer ${this.settings.accessToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      },
      this.timeoutMs,
    );
    const messages = answer.body?.messages;
    if (answer.status >= 200 && answer.status < 300 && Array.isArray(messages)) {
      const id = (messages[0] as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') return { ok: true, providerMessageId: id };
    }
    const error = answer.body?.error as { code?: unknown; message?: unknown } | undefined;
    if (error && typeof error.code === 'number' && answer.status < 500 && answer.status !== 429) {
      const text = `WhatsApp error ${error.code}: ${typeof error.message === 'string' ? error.message : 'refused'}`;
      return { ok: false, permanent: WHATSAPP_UNDELIVERABLE.has(error.code), error: text };
    }
    return retryable(answer, 'WhatsApp');
  }
}

import { GuestMessagesConfig } from '../../config/config';
import {
  callProvider,
  MessageProvider,
  OutgoingMessage,
  retryable,
  SendOutcome,
} from './message-provider';

/**
 * Termii SMS: `POST {base}/api/sms/send` with the API key in the JSON body,
 * `type: plain` on the `dnd` channel: transactional messages reach numbers
 * on Do-Not-Disturb and MTN Nigeria at night, which `generic` does not.
 * Its answer names the message in `message_id`; a number it cannot send to
 * is a 400 (or 404) with a `message`, which is final.
 */
export class TermiiProvider implements MessageProvider {
  readonly name = 'termii';
  readonly channel = 'sms' as const;

  constructor(
    private readonly settings: NonNullable<GuestMessagesConfig['termii']>,
    private readonly timeoutMs: number,
  ) {}

  async send(message: OutgoingMessage): Promise<SendOutcome> {
    const answer = await callProvider(
      `${this.settings.baseUrl}/api/sms/send`,
      {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          api_key: this.settings.apiKey,
          to: message.to.replace(/^\+/, ''),
          from: this.settings.senderId,
          sms: message.text,
          type: 'plain',
          channel: 'dnd',
        }),
      },
      this.timeoutMs,
    );
    const id = answer.body?.message_id;
    if (
      answer.status >= 200 &&
      answer.status < 300 &&
      (typeof id === 'string' || typeof id === 'number')
    ) {
      return { ok: true, providerMessageId: String(id) };
    }
    if (answer.status === 400 || answer.status === 404 || answer.status === 422) {
      const reason = answer.body?.message;
      return {
        ok: false,
        permanent: true,
        error: `Termii refused: ${typeof reason === 'string' ? reason : `HTTP ${answer.status}`}`,
      };
    }
    return retryable(answer, 'Termii');
  }
}

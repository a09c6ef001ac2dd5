import { GuestMessagesConfig } from '../../config/config';
import {
  callProvider,
  MessageProvider,
  OutgoingMessage,
  retryable,
  SendOutcome,
} from './message-provider';

/**
 * Twilio's codes for a number that cannot take the message: 21211 (not a
 * valid number), 21614 (not a mobile number), 21612 (cannot be routed),
 * 21408 (its region is not enabled), 21610 (it replied STOP).
 */
export const TWILIO_UNDELIVERABLE = new Set([21211, 21614, 21612, 21408, 21610]);

/**
 * Twilio SMS: `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`, form
 * encoded `To`, `From`, `Body`, with HTTP Basic auth (account SID and auth
 * token). A 201 names the message in `sid`; a refusal is `{ code, message,
 * status }`.
 */
export class TwilioProvider implements MessageProvider {
  readonly name = 'twilio';
  readonly channel = 'sms' as const;

  constructor(
    private readonly settings: NonNullable<GuestMessagesConfig['twilio']>,
    private readonly timeoutMs: number,
  ) {}

  async send(message: OutgoingMessage): Promise<SendOutcome> {
    const { accountSid, authToken, from, baseUrl } = this.settings;
    const answer = await callProvider(
      `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: message.to, From: from, Body: message.text }).toString(),
      },
      this.timeoutMs,
    );
    const sid = answer.body?.sid;
    if (answer.status >= 200 && answer.status < 300 && typeof sid === 'string') {
      return { ok: true, providerMessageId: sid };
    }
    const code = answer.body?.code;
    if (
      typeof code === 'number' &&
      answer.status >= 400 &&
      answer.status < 500 &&
      answer.status !== 429
    ) {
      const reason = answer.body?.message;
      return {
        ok: false,
        permanent: TWILIO_UNDELIVERABLE.has(code),
        error: `Twilio error ${code}: ${typeof reason === 'string' ? reason : 'refused'}`,
      };
    }
    return retryable(answer, 'Twilio');
  }
}

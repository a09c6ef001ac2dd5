import { MessageChannel } from '../../order';

/** One message as a provider sends it: the rendered text, and the WhatsApp template it fills. */
export interface OutgoingMessage {
  /** The guest's number in E.164. */
  to: string;
  /** The message in words (SMS, the log). */
  text: string;
  /** The WhatsApp template: its name, language (`en`, `fr`) and body parameters, the link last. */
  template: { name: string; language: string; parameters: string[] };
}

/**
 * What a provider answered: taken (with its id for the message); refused for
 * good (the number cannot receive it: the next channel is tried); or failed
 * for now (a timeout, a 5xx: the outbox tries again later).
 */
export type SendOutcome =
  { ok: true; providerMessageId: string } | { ok: false; permanent: boolean; error: string };

/** A way to reach a guest; each provider is one implementation, as payments are. */
export interface MessageProvider {
  /** `whatsapp`, `termii`, `twilio` or `log`: the outbox row's receiver and the log's `provider`. */
  readonly name: string;
  readonly channel: MessageChannel;
  send(message: OutgoingMessage): Promise<SendOutcome>;
}

/** An HTTP answer read as JSON where it is JSON; `status` 0 when no answer came. */
export interface ProviderAnswer {
  status: number;
  body: Record<string, unknown> | null;
  error?: string;
}

/** One call to a provider with a timeout; a network failure or timeout is status 0, never thrown. */
export async function callProvider(
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<ProviderAnswer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      body = null;
    }
    return { status: response.status, body };
  } catch (error) {
    return { status: 0, body: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The outcome of an answer that was not a success: 5xx, 429 and no answer are tried again. */
export function retryable(answer: ProviderAnswer, what: string): SendOutcome {
  const reason =
    answer.status === 0 ? `no answer (${answer.error ?? 'network'})` : `HTTP ${answer.status}`;
  return { ok: false, permanent: false, error: `${what}: ${reason}` };
}

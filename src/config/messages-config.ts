import { Env, int, oneOf, read, url } from './env-readers';

/**
 * Guest messages (WhatsApp Cloud API, Termii, Twilio). A provider is
 * configured when its credentials are set; with none, messages go to the log.
 */
export interface GuestMessagesConfig {
  whatsapp:
    | { accessToken: string; phoneNumberId: string; baseUrl: string; templatePrefix: string }
    | undefined;
  /** Signs WhatsApp's status webhooks (X-Hub-Signature-256); unset, they are refused. */
  whatsappAppSecret: string | undefined;
  /** Answers WhatsApp's verification handshake; unset, it is refused. */
  whatsappVerifyToken: string | undefined;
  termii: { apiKey: string; senderId: string; baseUrl: string } | undefined;
  twilio: { accountSid: string; authToken: string; from: string; baseUrl: string } | undefined;
  /** Which SMS provider sends when both are configured. */
  smsProvider: 'termii' | 'twilio';
  /** The guest's order page link with `{business_meta_key}`, `{order_uuid}`, `{order_token}`; unset: FRONT_URL's. */
  guestOrderUrl: string | undefined;
  timeoutMs: number;
}

/** Each guest message provider's settings: undefined without its credentials. */
export function guestMessagesConfig(env: Env): GuestMessagesConfig {
  const base = (value: string) => value.replace(/\/+$/, '');
  const whatsappToken = read(env, 'WHATSAPP_ACCESS_TOKEN');
  const whatsappNumber = read(env, 'WHATSAPP_PHONE_NUMBER_ID');
  const termiiKey = read(env, 'TERMII_API_KEY');
  const twilioSid = read(env, 'TWILIO_ACCOUNT_SID');
  const twilioToken = read(env, 'TWILIO_AUTH_TOKEN');
  const twilioFrom = read(env, 'TWILIO_FROM');
  return {
    whatsapp:
      whatsappToken && whatsappNumber
        ? {
            accessToken: whatsappToken,
            phoneNumberId: whatsappNumber,
            baseUrl: base(
              url(env, 'WHATSAPP_BASE_URL', ['http:', 'https:']) ??
                'https://graph.facebook.com/v21.0',
            ),
            templatePrefix: read(env, 'WHATSAPP_TEMPLATE_PREFIX') ?? 'order_',
          }
        : undefined,
    whatsappAppSecret: read(env, 'WHATSAPP_APP_SECRET'),
    whatsappVerifyToken: read(env, 'WHATSAPP_VERIFY_TOKEN'),
    termii: termiiKey
      ? {
          apiKey: termiiKey,
          senderId: read(env, 'TERMII_SENDER_ID') ?? 'Orders',
          baseUrl: base(
            url(env, 'TERMII_BASE_URL', ['http:', 'https:']) ?? 'https://api.ng.termii.com',
          ),
        }
      : undefined,
    twilio:
      twilioSid && twilioToken && twilioFrom
        ? {
            accountSid: twilioSid,
            authToken: twilioToken,
            from: twilioFrom,
            baseUrl: base(
              url(env, 'TWILIO_BASE_URL', ['http:', 'https:']) ?? 'https://api.twilio.com',
            ),
          }
        : undefined,
    smsProvider: oneOf(env, 'SMS_PROVIDER', ['termii', 'twilio'] as const, 'termii'),
    guestOrderUrl: read(env, 'GUEST_ORDER_URL'),
    timeoutMs: int(env, 'MESSAGE_PROVIDER_TIMEOUT_MS', 10000, 1, 120000),
  };
}

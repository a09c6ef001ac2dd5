import { createHmac, randomBytes } from 'node:crypto';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

export interface ReceivedMessageCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** JSON bodies parsed; form bodies as their fields. */
  body: any;
}

/** How a fake answers the next sends: as documented, refusing the number, with a 5xx, or late. */
export type FakeMessageMode = 'ok' | 'undeliverable' | 'error' | 'stall';

/** A small HTTP server on 127.0.0.1 that records each call and answers through `answer`. */
abstract class FakeProviderServer {
  readonly calls: ReceivedMessageCall[] = [];
  mode: FakeMessageMode = 'ok';
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  baseUrl = '';

  protected abstract answer(call: ReceivedMessageCall, res: ServerResponse): void;

  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const type = req.headers['content-type'] ?? '';
    let body: unknown = raw;
    if (type.includes('application/json')) body = raw ? JSON.parse(raw) : null;
    else if (type.includes('application/x-www-form-urlencoded')) {
      body = Object.fromEntries(new URLSearchParams(raw));
    }
    const call = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    this.calls.push(call);
    if (this.mode === 'stall') return; // never answers: the caller's timeout decides
    this.answer(call, res);
  }

  protected json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

/**
 * WhatsApp Cloud API's messages endpoint: `POST /{phone_number_id}/messages`
 * behind the Bearer access token, a `template` message in; `{
 * messaging_product, contacts: [{ input, wa_id }], messages: [{ id: "wamid…" }] }`
 * out, or Graph's `{ error: { message, type, code, error_data, fbtrace_id } }`.
 * It signs status webhooks as Meta does (`X-Hub-Signature-256: sha256=<hex
 * HMAC-SHA256 of the body under the app secret>`).
 */
export class FakeWhatsApp extends FakeProviderServer {
  /** Each message it took, with the id it answered. */
  readonly sent: Array<{ id: string; call: ReceivedMessageCall }> = [];

  constructor(
    readonly accessToken = `EAAG${randomBytes(12).toString('hex')}`,
    readonly phoneNumberId = '106540352242922',
    readonly appSecret = randomBytes(16).toString('hex'),
  ) {
    super();
  }

  env(): Record<string, string> {
    return {
      WHATSAPP_ACCESS_TOKEN: this.accessToken,
      WHATSAPP_PHONE_NUMBER_ID: this.phoneNumberId,
      WHATSAPP_APP_SECRET: this.appSecret,
      WHATSAPP_BASE_URL: `${this.baseUrl}/v21.0`,
    };
  }

  protected answer(call: ReceivedMessageCall, res: ServerResponse): void {
    if (
      call.method !== 'POST' ||
      call.path !== `/v21.0/${this.phoneNumberId}/messages` ||
      call.headers.authorization !== `Bearer ${this.accessToken}`
    ) {
      return this.json(res, 401, {
        error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
      });
    }
    const body = call.body as { to?: string; type?: string; template?: { name?: string } };
    if (body?.type !== 'template' || !body.template?.name) {
      return this.json(res, 400, {
        error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 },
      });
    }
    if (this.mode === 'error') {
      return this.json(res, 500, {
        error: { message: 'An unknown error occurred', type: 'OAuthException', code: 1 },
      });
    }
    if (this.mode === 'undeliverable') {
      return this.json(res, 400, {
        error: {
          message: '(#131026) Message undeliverable',
          type: 'OAuthException',
          code: 131026,
          error_data: { messaging_product: 'whatsapp', details: 'Message Undeliverable.' },
          fbtrace_id: 'A1b2C3d4',
        },
      });
    }
    const id = `wamid.${randomBytes(12).toString('hex')}`;
    this.sent.push({ id, call });
    this.json(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id }],
    });
  }

  /** A status webhook body for one message, as Meta sends it. */
  statusBody(
    wamid: string,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    errorCode?: number,
  ): string {
    return JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: {
                  display_phone_number: '15550783881',
                  phone_number_id: this.phoneNumberId,
                },
                statuses: [
                  {
                    id: wamid,
                    status,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    recipient_id: '2348031234567',
                    ...(errorCode
                      ? { errors: [{ code: errorCode, title: 'Message undeliverable' }] }
                      : {}),
                  },
                ],
              },
            },
          ],
        },
      ],
    });
  }

  sign(body: string, secret = this.appSecret): string {
    return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  }
}

/**
 * Termii's `POST /api/sms/send`: `{ api_key, to, from, sms, type, channel }`
 * in (the key in the body); `{ message_id, message: "Successfully Sent",
 * balance, user }` out, or a 400 `{ message }` for a number it cannot send to.
 */
export class FakeTermii extends FakeProviderServer {
  constructor(readonly apiKey = `TL${randomBytes(12).toString('hex')}`) {
    super();
  }

  env(): Record<string, string> {
    return {
      TERMII_API_KEY: this.apiKey,
      TERMII_SENDER_ID: 'Kitchen',
      TERMII_BASE_URL: this.baseUrl,
    };
  }

  protected answer(call: ReceivedMessageCall, res: ServerResponse): void {
    const body = call.body as Record<string, unknown> | null;
    if (call.method !== 'POST' || call.path !== '/api/sms/send' || body?.api_key !== this.apiKey) {
      return this.json(res, 401, { message: 'Invalid API key' });
    }
    if (this.mode === 'error') return this.json(res, 503, { message: 'Service unavailable' });
    if (this.mode === 'undeliverable') {
      return this.json(res, 400, { message: 'Invalid phone number' });
    }
    this.json(res, 200, {
      message_id: String(9_000_000_000 + this.calls.length),
      message: 'Successfully Sent',
      balance: 98,
      user: 'Test Kitchen',
    });
  }
}

/**
 * Twilio's `POST /2010-04-01/Accounts/{sid}/Messages.json`: form fields `To`,
 * `From`, `Body` with HTTP Basic auth (SID and auth token); a 201 Message
 * resource `{ sid: "SM…", status: "queued", … }` out, or `{ code, message,
 * more_info, status }` (21211 for a number that is not valid).
 */
export class FakeTwilio extends FakeProviderServer {
  constructor(
    readonly accountSid = `AC${randomBytes(16).toString('hex')}`,
    readonly authToken = randomBytes(16).toString('hex'),
  ) {
    super();
  }

  env(): Record<string, string> {
    return {
      TWILIO_ACCOUNT_SID: this.accountSid,
      TWILIO_AUTH_TOKEN: this.authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_BASE_URL: this.baseUrl,
    };
  }

  protected answer(call: ReceivedMessageCall, res: ServerResponse): void {
    const basic = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (
      call.method !== 'POST' ||
      call.path !== `/2010-04-01/Accounts/${this.accountSid}/Messages.json` ||
      call.headers.authorization !== basic
    ) {
      return this.json(res, 401, {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });
    }
    const body = call.body as Record<string, string>;
    if (this.mode === 'error')
      return this.json(res, 500, { code: 20500, message: 'Internal', status: 500 });
    if (this.mode === 'undeliverable') {
      return this.json(res, 400, {
        code: 21211,
        message: `The 'To' number ${body.To} is not a valid phone number.`,
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      });
    }
    this.json(res, 201, {
      sid: `SM${randomBytes(16).toString('hex')}`,
      account_sid: this.accountSid,
      to: body.To,
      from: body.From,
      body: body.Body,
      status: 'queued',
      direction: 'outbound-api',
      num_segments: '1',
      error_code: null,
      error_message: null,
    });
  }
}

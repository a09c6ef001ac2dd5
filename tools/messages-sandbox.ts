/**
 * `npm run messages:sandbox`: local WhatsApp Cloud API, Termii and Twilio to
 * try guest messages without an account. They are the tests' fakes
 * (test/support/fake-message-providers.ts, speaking each provider's API)
 * behind a small front that adds what a person needs: the list of messages
 * they took (`GET /messages`, numbers masked), WhatsApp's signed status
 * webhooks sent to the service (`POST /whatsapp/<wamid>/delivered|read|failed`,
 * `failed` as 131026 "undeliverable", which makes the service send the SMS),
 * and a switch that makes a provider refuse every number
 * (`POST /<whatsapp|termii|twilio>/mode/undeliverable`, back with `/mode/ok`).
 *
 * Start the service with the settings this prints; docs/messages.md walks
 * through it.
 */
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { maskPhone } from '../src/common/phone-number';
import {
  FakeMessageMode,
  FakeTermii,
  FakeTwilio,
  FakeWhatsApp,
} from '../test/support/fake-message-providers';

export const MESSAGES_SANDBOX_PORT = 4020;
export const SANDBOX_VERIFY_TOKEN = 'sandbox-verify-token';

export interface MessagesSandboxOptions {
  /** Port of the front on 127.0.0.1 (the fakes take the next three); 0 picks free ones. */
  port: number;
  /** Where the service listens: WhatsApp's status webhooks go there. */
  serviceUrl: string;
  namespace: string;
}

export interface MessagesSandbox {
  url: string;
  whatsapp: FakeWhatsApp;
  termii: FakeTermii;
  twilio: FakeTwilio;
  /** The settings that point the service at the sandbox (SMS by Termii; SMS_PROVIDER=twilio for Twilio). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** One message a fake took, as the front lists it. */
export interface SandboxMessage {
  provider: 'whatsapp' | 'termii' | 'twilio';
  id: string | null;
  to: string;
  text: string;
}

const MODES: readonly FakeMessageMode[] = ['ok', 'undeliverable', 'error'];

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body, null, 2)}\n`);
}

const masked = (to: unknown) => maskPhone(String(to ?? '').replace(/^(?=\d)/, '+'));

export async function startMessagesSandbox(
  options: MessagesSandboxOptions,
): Promise<MessagesSandbox> {
  const next = (offset: number) => (options.port === 0 ? 0 : options.port + offset);
  const whatsapp = await new FakeWhatsApp().start(next(1));
  const termii = await new FakeTermii().start(next(2));
  const twilio = await new FakeTwilio().start(next(3));
  const fakes = { whatsapp, termii, twilio };
  const sockets = new Set<Socket>();
  const webhookUrl = () =>
    `${options.serviceUrl.replace(/\/$/, '')}/plugins/${options.namespace}/${options.namespace}-init/messages/whatsapp/webhook`;

  function messages(): SandboxMessage[] {
    return [
      ...whatsapp.sent.map(({ id, call }) => ({
        provider: 'whatsapp' as const,
        id,
        to: masked(call.body?.to),
        text: `${call.body?.template?.name} (${call.body?.template?.language?.code}): ${(
          call.body?.template?.components?.[0]?.parameters ?? []
        )
          .map((p: { text: string }) => p.text)
          .join(' | ')}`,
      })),
      ...termii.calls.map((call) => ({
        provider: 'termii' as const,
        id: null,
        to: masked(call.body?.to),
        text: String(call.body?.sms ?? ''),
      })),
      ...twilio.calls.map((call) => ({
        provider: 'twilio' as const,
        id: null,
        to: masked(call.body?.To),
        text: String(call.body?.Body ?? ''),
      })),
    ];
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for await (const chunk of req) void chunk;
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && (path === '/' || path === '/messages')) {
      return json(res, 200, messages());
    }
    const status = /^\/whatsapp\/([^/]+)\/(delivered|read|failed)$/.exec(path);
    if (req.method === 'POST' && status) {
      const [, id, to] = status;
      const body = whatsapp.statusBody(
        decodeURIComponent(id),
        to as 'delivered' | 'read' | 'failed',
        to === 'failed' ? 131026 : undefined,
      );
      const answer = await fetch(webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': whatsapp.sign(body) },
        body,
      }).catch((error: unknown) => ({ status: 0, text: () => Promise.resolve(String(error)) }));
      return json(res, 200, { webhook_status: answer.status, answer: await answer.text() });
    }
    const mode = /^\/(whatsapp|termii|twilio)\/mode\/([a-z]+)$/.exec(path);
    if (req.method === 'POST' && mode && MODES.includes(mode[2] as FakeMessageMode)) {
      fakes[mode[1] as keyof typeof fakes].mode = mode[2] as FakeMessageMode;
      return json(res, 200, { provider: mode[1], mode: mode[2] });
    }
    json(res, 404, {
      error: 'GET /messages, POST /whatsapp/<wamid>/<status>, POST /<provider>/mode/<mode>',
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    whatsapp,
    termii,
    twilio,
    env: {
      ...whatsapp.env(),
      WHATSAPP_VERIFY_TOKEN: SANDBOX_VERIFY_TOKEN,
      ...termii.env(),
      ...twilio.env(),
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([whatsapp.stop(), termii.stop(), twilio.stop()]);
    },
  };
}

async function main(): Promise<void> {
  const serviceUrl = process.env.SERVICE_URL ?? 'http://localhost:3000';
  const sandbox = await startMessagesSandbox({
    port: Number(process.env.MESSAGES_SANDBOX_PORT ?? MESSAGES_SANDBOX_PORT),
    serviceUrl,
    namespace: process.env.API_NAMESPACE ?? 'svc',
  });
  const settings = Object.entries(sandbox.env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  process.stdout.write(
    [
      `Message sandbox at ${sandbox.url}: WhatsApp Cloud API, Termii and Twilio on the next three ports.`,
      'Start the service against it, for instance:',
      `  ${settings} npm run serve`,
      '(add SMS_PROVIDER=twilio to send SMS by Twilio instead of Termii).',
      `GET ${sandbox.url}/messages lists what the providers took;`,
      `POST ${sandbox.url}/whatsapp/<wamid>/delivered (or read, failed) sends the signed status webhook to ${serviceUrl};`,
      `POST ${sandbox.url}/whatsapp/mode/undeliverable makes WhatsApp refuse every number (/mode/ok undoes it).`,
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

/**
 * `npm run paystack:sandbox`: a local Paystack to try payments without an
 * account. It is the tests' fake Paystack (test/support/fake-paystack.ts:
 * Transaction Initialize, Verify and Refund, and the Charge API for USSD,
 * mobile money and bank transfer, behind the secret key) behind a front on a
 * fixed port that adds what a person needs: a checkout page that "pays" (or
 * declines), a page of open charges where the guest's dialling, approval or
 * transfer is played (`POST /charges/<reference>/pay`, with `?amount=` in
 * minor units for a transfer of another amount), and the signed webhooks
 * Paystack would send to the service (`charge.success` when a checkout or
 * charge is paid, `refund.processed` when a refund is made).
 *
 * Start the service with PAYSTACK_SECRET_KEY and PAYSTACK_BASE_URL as this
 * prints; docs/payments.md walks through it.
 */
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { FakePaystack } from '../test/support/fake-paystack';

export const SANDBOX_SECRET_KEY = 'sk_test_sandbox_not_a_real_key';
export const SANDBOX_PORT = 4010;

export interface SandboxOptions {
  /** Port of the sandbox on 127.0.0.1; 0 picks a free one. */
  port: number;
  secretKey: string;
  /** Where the service listens: webhooks go to its Paystack webhook path. */
  serviceUrl: string;
  namespace: string;
}

export interface PaystackSandbox {
  url: string;
  fake: FakePaystack;
  close(): Promise<void>;
}

interface Checkout {
  reference: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

export async function startPaystackSandbox(options: SandboxOptions): Promise<PaystackSandbox> {
  const fake = await FakePaystack.start(options.secretKey);
  const checkouts = new Map<string, Checkout>();
  const sockets = new Set<Socket>();
  // Read at each send, so a caller may point the sandbox at a service started after it.
  const webhookUrl = () =>
    `${options.serviceUrl.replace(/\/$/, '')}/plugins/${options.namespace}/${options.namespace}-init/payment/paystack/webhook`;
  let publicUrl = '';

  /** Paystack's API: forwarded to the fake, with checkout links that point here. */
  async function forward(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = await readBody(req);
    const answer = await fetch(`${fake.url}${req.url}`, {
      method: req.method,
      headers: {
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        'content-type': 'application/json',
      },
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const parsed = (await answer.json()) as { status?: boolean; data?: Record<string, any> };
    if (answer.ok && path === '/transaction/initialize' && parsed.data) {
      const code = String(parsed.data.access_code);
      checkouts.set(code, { reference: String(parsed.data.reference) });
      parsed.data.authorization_url = `${publicUrl}/checkout/${code}`;
    }
    send(res, answer.status, 'application/json', JSON.stringify(parsed));
    if (answer.ok && path === '/refund' && parsed.data) {
      // Paystack confirms a refund with a signed event; the service counts it once.
      const refund = parsed.data;
      void fake
        .sendWebhook(webhookUrl(), {
          event: 'refund.processed',
          data: {
            id: refund.id,
            status: 'processed',
            transaction_reference: refund.transaction?.reference,
            amount: refund.amount,
            currency: refund.currency,
          },
        })
        .catch(() => undefined);
    }
  }

  function checkoutPage(res: ServerResponse, code: string): void {
    const checkout = checkouts.get(code);
    const transaction = checkout && fake.transactions.get(checkout.reference);
    if (!checkout || !transaction) return send(res, 404, 'text/plain', 'No such checkout\n');
    const amount = (transaction.amount / 100).toFixed(2);
    const done = transaction.status !== 'abandoned';
    send(
      res,
      200,
      'text/html; charset=utf-8',
      `<!doctype html><html><head><meta charset="utf-8"><title>Paystack sandbox checkout</title></head>
<body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">
<h1>Paystack sandbox</h1>
<p>${escapeHtml(transaction.email)} pays <strong>${escapeHtml(transaction.currency)} ${amount}</strong></p>
<p>Reference <code>${escapeHtml(transaction.reference)}</code>: ${escapeHtml(transaction.status)}</p>
${
  done
    ? ''
    : `<form method="post" action="/checkout/${escapeHtml(code)}/pay"><button>Pay</button></form>
<form method="post" action="/checkout/${escapeHtml(code)}/decline"><button>Decline</button></form>`
}
<p>No money moves: this is a local stand-in for Paystack's checkout.</p></body></html>`,
    );
  }

  /** The guest pays (or is declined): the charge is recorded and, when paid, the webhook sent. */
  async function settle(
    req: IncomingMessage,
    res: ServerResponse,
    code: string,
    outcome: 'pay' | 'decline',
  ): Promise<void> {
    await readBody(req);
    const checkout = checkouts.get(code);
    const transaction = checkout && fake.transactions.get(checkout.reference);
    if (!checkout || !transaction) return send(res, 404, 'text/plain', 'No such checkout\n');
    if (transaction.status !== 'abandoned') {
      return send(res, 409, 'application/json', JSON.stringify({ status: transaction.status }));
    }
    let webhook: { status: number } | null = null;
    if (outcome === 'pay') {
      fake.pay(checkout.reference);
      const sent = await fake
        .sendWebhook(webhookUrl(), { event: 'charge.success', data: fake.chargeData(transaction) })
        .catch((error: unknown) => ({ status: 0, body: String(error) }));
      webhook = { status: sent.status };
    } else {
      transaction.status = 'failed';
    }
    const result = { status: transaction.status, reference: transaction.reference, webhook };
    if ((req.headers.accept ?? '').includes('text/html') && transaction.callback_url) {
      // As Paystack does: back to the shop's callback page with the reference.
      const back = new URL(transaction.callback_url);
      back.searchParams.set('trxref', transaction.reference);
      back.searchParams.set('reference', transaction.reference);
      res.writeHead(303, { location: back.toString() });
      return void res.end();
    }
    send(res, 200, 'application/json', `${JSON.stringify(result)}\n`);
  }

  /** The open charges, with what the guest would do for each. */
  function chargesPage(res: ServerResponse): void {
    const charges = [...fake.transactions.values()].filter(
      (t) => t.channel && t.channel !== 'card',
    );
    const rows = charges
      .map(
        (
          t,
        ) => `<li><code>${escapeHtml(t.reference)}</code> ${escapeHtml(t.channel ?? '')} ${escapeHtml(t.currency)} ${(t.amount / 100).toFixed(2)}: ${escapeHtml(t.status === 'abandoned' ? 'waiting' : t.status)}
${t.status === 'abandoned' ? `<form method="post" action="/charges/${escapeHtml(t.reference)}/pay"><button>Pay</button></form><form method="post" action="/charges/${escapeHtml(t.reference)}/fail"><button>Fail</button></form>` : ''}</li>`,
      )
      .join('\n');
    send(
      res,
      200,
      'text/html; charset=utf-8',
      `<!doctype html><html><head><meta charset="utf-8"><title>Paystack sandbox charges</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto"><h1>Open charges</h1><ul>${rows}</ul>
<p>Pay plays the guest dialling the USSD code, approving on the phone or transferring; no money moves.</p></body></html>`,
    );
  }

  /** The guest completes (or fails) a charge: recorded, and when paid the signed webhook sent. */
  async function completeCharge(
    req: IncomingMessage,
    res: ServerResponse,
    reference: string,
    outcome: 'pay' | 'fail',
  ): Promise<void> {
    await readBody(req);
    const transaction = fake.transactions.get(reference);
    if (!transaction || !transaction.channel || transaction.channel === 'card') {
      return send(res, 404, 'text/plain', 'No such charge\n');
    }
    if (transaction.status !== 'abandoned') {
      return send(res, 409, 'application/json', JSON.stringify({ status: transaction.status }));
    }
    let webhook: { status: number } | null = null;
    if (outcome === 'pay') {
      const amount = new URL(req.url ?? '/', 'http://sandbox').searchParams.get('amount');
      fake.pay(reference, amount && /^\d+$/.test(amount) ? { amount: Number(amount) } : {});
      const sent = await fake
        .sendWebhook(webhookUrl(), { event: 'charge.success', data: fake.chargeData(transaction) })
        .catch((error: unknown) => ({ status: 0, body: String(error) }));
      webhook = { status: sent.status };
    } else {
      transaction.status = 'failed';
    }
    send(
      res,
      200,
      'application/json',
      `${JSON.stringify({ status: transaction.status, amount: transaction.amount, webhook })}\n`,
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    if (path === '/charges' && req.method === 'GET') return chargesPage(res);
    const charge = /^\/charges\/([^/]+)\/(pay|fail)$/.exec(path);
    if (charge && req.method === 'POST') {
      return completeCharge(req, res, decodeURIComponent(charge[1]), charge[2] as 'pay' | 'fail');
    }
    const page = /^\/checkout\/([^/]+)(?:\/(pay|decline))?$/.exec(path);
    if (page && req.method === 'GET' && !page[2]) return checkoutPage(res, page[1]);
    if (page && req.method === 'POST' && page[2]) {
      return settle(req, res, page[1], page[2] as 'pay' | 'decline');
    }
    if (path === '/done') {
      return send(
        res,
        200,
        'text/plain',
        'Back at the shop. Its callback page would now ask the service to verify the payment.\n',
      );
    }
    return forward(req, res, path);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 502, 'text/plain', `Sandbox error: ${String(error)}\n`);
      else res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: publicUrl,
    fake,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fake.close();
    },
  };
}

async function main(): Promise<void> {
  const sandbox = await startPaystackSandbox({
    port: Number(process.env.PAYSTACK_SANDBOX_PORT ?? SANDBOX_PORT),
    secretKey: process.env.PAYSTACK_SECRET_KEY ?? SANDBOX_SECRET_KEY,
    serviceUrl: process.env.SERVICE_URL ?? 'http://localhost:3000',
    namespace: process.env.API_NAMESPACE ?? 'svc',
  });
  process.stdout.write(
    [
      `Paystack sandbox at ${sandbox.url} (secret key ${sandbox.fake.secretKey}).`,
      'Start the service against it, for instance:',
      `  PAYSTACK_SECRET_KEY=${sandbox.fake.secretKey} PAYSTACK_BASE_URL=${sandbox.url} npm run serve`,
      `Checkout links open ${sandbox.url}/checkout/<code>, where Pay marks the charge paid and sends`,
      `the signed charge.success webhook to ${process.env.SERVICE_URL ?? 'http://localhost:3000'}.`,
      `USSD, mobile money and transfer charges are listed at ${sandbox.url}/charges;`,
      `POST ${sandbox.url}/charges/<reference>/pay plays the guest paying one.`,
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

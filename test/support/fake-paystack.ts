import { createHmac, randomBytes } from 'node:crypto';
import { chargeAnswerData, ChargeMode, createCharge, submitOtp } from './fake-paystack-charges';
import { listRefunds, refundable, refundQueued } from './fake-paystack-refunds';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

export interface ReceivedCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

export interface FakeTransaction {
  id: number;
  reference: string;
  email: string;
  amount: number;
  currency: string;
  status: 'abandoned' | 'success' | 'failed';
  paid_at: string | null;
  refunded: number;
  metadata: unknown;
  subaccount: string | null;
  callback_url: string | null;
  /** The channels the checkout was asked to offer; null when none were named. */
  channels: string[] | null;
  /** How it is paid: `card` for a checkout, else the charge's channel. */
  channel?: string;
  /** A pending charge's answer data (what the guest does next). */
  pendingData?: Record<string, unknown>;
}

/** The channels Paystack's initialize accepts. */
const PAYSTACK_CHANNELS = ['card', 'bank', 'ussd', 'qr', 'mobile_money', 'bank_transfer', 'eft'];

/** How the fake answers: normally, with a 5xx, with `status: false`, or never. */
export type FakeMode = 'ok' | 'error' | 'refuse' | 'stall';

/** A refund the fake made, as List Refunds shows it. */
export interface FakeRefund {
  id: number;
  transaction: number;
  reference: string;
  amount: number;
  currency: string;
  status: 'pending' | 'processed';
}

/**
 * How the fake treats a Refund call: answers it (after `refundDelayMs`);
 * makes the refund but never answers (`stall`: the caller dies waiting); or
 * never gets to make it (`lose`: the request was lost on the way).
 */
export type RefundMode = 'answer' | 'stall' | 'lose';

/**
 * A small Paystack on 127.0.0.1 speaking its documented API: Transaction
 * Initialize, Transaction Verify and Refund, each behind the Bearer secret
 * key, answering the `{ status, message, data }` envelope with amounts in
 * minor units. It records every call, can be told to fail or to stall, and
 * sends webhooks signed as Paystack signs them (hex HMAC-SHA512 of the body
 * under the secret key, in `x-paystack-signature`).
 */
export class FakePaystack {
  readonly calls: ReceivedCall[] = [];
  readonly transactions = new Map<string, FakeTransaction>();
  mode: FakeMode = 'ok';
  readonly refundsMade: FakeRefund[] = [];
  refundMode: RefundMode = 'answer';
  /** How long a Refund call waits before its answer. */
  refundDelayMs = 0;
  /**
   * Runs once a refund is made and before its answer leaves: a test sends
   * the `refund.processed` webhook from here to race the answer.
   */
  onRefundMade: ((refund: FakeRefund) => Promise<void>) | null = null;
  /**
   * Runs once a checkout is made and before its answer leaves: a test sends
   * the `charge.success` webhook from here to settle it before the service
   * hears the answer.
   */
  onInitialized: ((reference: string) => Promise<void>) | null = null;
  /** Off for load runs: calls are answered but not kept. */
  record = true;
  /** How the fake answers a new charge (Charge API). */
  chargeMode: ChargeMode = 'normal';
  /** TCP connections callers opened to the fake (kept-alive ones count once). */
  connectionsOpened = 0;
  private nextId = 4_100_000;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: http.Server,
    readonly secretKey: string,
  ) {}

  static async start(
    secretKey = `sk_test_${randomBytes(12).toString('hex')}`,
  ): Promise<FakePaystack> {
    const server = http.createServer();
    const fake = new FakePaystack(server, secretKey);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void fake.handle(req, res));
    server.on('connection', (socket) => {
      fake.connectionsOpened++;
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The bodies of Transaction Initialize calls, in order. */
  get initialized(): any[] {
    return this.calls.filter((c) => c.path === '/transaction/initialize').map((c) => c.body);
  }

  get refunds(): any[] {
    return this.calls.filter((c) => c.path === '/refund').map((c) => c.body);
  }

  /** The bodies of Charge API calls (`POST /charge`), in order. */
  get charges(): any[] {
    return this.calls.filter((c) => c.method === 'POST' && c.path === '/charge').map((c) => c.body);
  }

  /** The references of the charges made, in order. */
  chargeReferences(): string[] {
    return [...this.transactions.values()]
      .filter((t) => t.channel && t.channel !== 'card')
      .map((t) => t.reference);
  }

  /** The guest paid on the checkout of `reference` (as Paystack records a successful charge). */
  pay(reference: string, overrides: Partial<FakeTransaction> = {}): FakeTransaction {
    const transaction = this.transactions.get(reference);
    if (!transaction) throw new Error(`No checkout ${reference}`);
    Object.assign(transaction, { status: 'success', paid_at: new Date().toISOString() }, overrides);
    return transaction;
  }

  /** The `data` of a charge event or verify answer for this transaction. */
  chargeData(transaction: FakeTransaction): Record<string, unknown> {
    return {
      id: transaction.id,
      domain: 'test',
      status: transaction.status,
      reference: transaction.reference,
      amount: transaction.amount,
      message: null,
      gateway_response: transaction.status === 'success' ? 'Successful' : 'Declined',
      paid_at: transaction.paid_at,
      created_at: new Date().toISOString(),
      channel: transaction.channel ?? 'card',
      currency: transaction.currency,
      metadata: transaction.metadata,
      customer: { email: transaction.email },
    };
  }

  /** A `refund.processed` event about a refund the fake made. */
  refundProcessed(refund: FakeRefund): Record<string, unknown> {
    return {
      event: 'refund.processed',
      data: {
        id: refund.id,
        status: 'processed',
        transaction_reference: refund.reference,
        amount: refund.amount,
        currency: refund.currency,
      },
    };
  }

  /** Signs `body` as Paystack does. */
  sign(body: string | Buffer): string {
    return createHmac('sha512', this.secretKey).update(body).digest('hex');
  }

  /**
   * POSTs an event to `url` as Paystack delivers webhooks. `signature`
   * overrides the header (null: none); `tamper` changes the body after signing.
   */
  async sendWebhook(
    url: string,
    event: Record<string, unknown>,
    options: { signature?: string | null; tamper?: (body: string) => string } = {},
  ): Promise<{ status: number; body: any }> {
    const signed = JSON.stringify(event);
    const signature = options.signature === undefined ? this.sign(signed) : options.signature;
    const body = options.tamper ? options.tamper(signed) : signed;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature === null ? {} : { 'x-paystack-signature': signature }),
      },
      body,
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // left as text
    }
    return { status: response.status, body: parsed };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const path = (req.url ?? '/').split('?')[0];
    if (this.record) {
      this.calls.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        body,
      });
    }

    if (this.mode === 'stall') return; // never answers
    if (this.mode === 'error')
      return this.answer(res, 502, { status: false, message: 'Bad gateway' });
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return this.answer(res, 401, { status: false, message: 'Invalid key' });
    }
    if (this.mode === 'refuse') {
      return this.answer(res, 400, {
        status: false,
        message: 'Transaction could not be processed',
      });
    }
    if (req.method === 'POST' && path === '/transaction/initialize')
      return this.initialize(res, body);
    const verify = /^\/transaction\/verify\/(.+)$/.exec(path);
    if (req.method === 'GET' && verify) return this.verify(res, decodeURIComponent(verify[1]));
    if (req.method === 'POST' && path === '/refund') return this.refund(res, body);
    if (req.method === 'POST' && path === '/charge') return this.charge(res, body);
    if (req.method === 'POST' && path === '/charge/submit_otp') {
      return this.chargeStep(
        res,
        body?.reference,
        submitOtp(this.transactions.get(body?.reference), body),
      );
    }
    const check = /^\/charge\/(.+)$/.exec(path);
    if (req.method === 'GET' && check) {
      const reference = decodeURIComponent(check[1]);
      const known = this.transactions.get(reference);
      return known
        ? this.chargeStep(res, reference, {
            status: 200,
            body: { status: true, message: 'Reference check successful' },
          })
        : this.answer(res, 400, { status: false, message: 'Charge not found' });
    }
    if (req.method === 'GET' && path === '/refund')
      return this.answer(res, 200, listRefunds(this.refundsMade, req.url ?? ''));
    this.answer(res, 404, { status: false, message: 'Not found' });
  }

  private charge(res: ServerResponse, body: any): void {
    const { answer } = createCharge(this.transactions, () => this.nextId++, body, this.chargeMode);
    this.chargeStep(res, body?.reference, answer);
  }

  /** A Charge API answer: the envelope, with the charge as it now stands as its `data`. */
  private chargeStep(
    res: ServerResponse,
    reference: string,
    answer: { status: number; body: Record<string, unknown> },
  ): void {
    const transaction = this.transactions.get(reference);
    if (answer.status !== 200 || !transaction) return this.answer(res, answer.status, answer.body);
    this.answer(res, 200, {
      ...answer.body,
      data: chargeAnswerData(transaction, this.chargeData(transaction)),
    });
  }

  private async initialize(res: ServerResponse, body: any): Promise<void> {
    if (!body || typeof body.email !== 'string' || !body.email.includes('@')) {
      return this.answer(res, 400, { status: false, message: 'Invalid Email Address Passed' });
    }
    const amount = typeof body.amount === 'string' ? Number(body.amount) : body.amount;
    if (!Number.isInteger(amount) || amount <= 0) {
      return this.answer(res, 400, { status: false, message: 'Invalid Amount Sent' });
    }
    if (
      body.channels !== undefined &&
      (!Array.isArray(body.channels) ||
        body.channels.length === 0 ||
        body.channels.some((c: unknown) => !PAYSTACK_CHANNELS.includes(c as string)))
    ) {
      return this.answer(res, 400, { status: false, message: 'Invalid channels' });
    }
    const reference: string = body.reference ?? `T${randomBytes(6).toString('hex')}`;
    if (this.transactions.has(reference)) {
      return this.answer(res, 400, { status: false, message: 'Duplicate Transaction Reference' });
    }
    const accessCode = randomBytes(8).toString('hex');
    this.transactions.set(reference, {
      id: this.nextId++,
      reference,
      email: body.email,
      amount,
      currency: body.currency ?? 'NGN',
      status: 'abandoned',
      paid_at: null,
      refunded: 0,
      metadata: body.metadata ?? null,
      subaccount: body.subaccount ?? null,
      callback_url: body.callback_url ?? null,
      channels: body.channels ?? null,
    });
    if (this.onInitialized) await this.onInitialized(reference);
    this.answer(res, 200, {
      status: true,
      message: 'Authorization URL created',
      data: {
        authorization_url: `https://checkout.paystack.com/${accessCode}`,
        access_code: accessCode,
        reference,
      },
    });
  }

  private verify(res: ServerResponse, reference: string): void {
    const transaction = this.transactions.get(reference);
    if (!transaction) {
      return this.answer(res, 400, { status: false, message: 'Transaction reference not found' });
    }
    this.answer(res, 200, {
      status: true,
      message: 'Verification successful',
      data: this.chargeData(transaction),
    });
  }

  private async refund(res: ServerResponse, body: any): Promise<void> {
    if (this.refundMode === 'lose') return; // never made, never answered
    const asked = refundable(this.transactions.values(), body);
    if (!('transaction' in asked)) return this.answer(res, asked.status, asked.body);
    const { transaction, amount } = asked;
    transaction.refunded += amount;
    const refund: FakeRefund = {
      id: this.nextId++,
      transaction: transaction.id,
      reference: transaction.reference,
      amount,
      currency: transaction.currency,
      status: 'pending',
    };
    this.refundsMade.push(refund);
    if (this.refundMode === 'stall') return; // made, but the answer never leaves
    if (this.onRefundMade) await this.onRefundMade(refund);
    if (this.refundDelayMs) await new Promise((done) => setTimeout(done, this.refundDelayMs));
    this.answer(res, 200, refundQueued(transaction, refund));
  }

  private answer(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

import { createServer } from 'node:net';
import { FakePaystack } from '../../../test/support/fake-paystack';
import { PaystackProvider } from './paystack.provider';
import { ProviderHttp } from './provider-http';

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Every call to Paystack goes through one small HTTP client: kept-alive
 * connections (a bounded number), one deadline over the whole call, JSON
 * both ways, failures in the sentences an order's payment carries. Checked
 * against the fake Paystack on loopback.
 */
describe('Paystack over HTTP', () => {
  let fake: FakePaystack;
  let paystack: PaystackProvider;
  const opened: ProviderHttp[] = [];

  const client = (settings: { timeoutMs?: number; maxSockets?: number } = {}) => {
    const http = new ProviderHttp({ baseUrl: fake.url, timeoutMs: 5_000, ...settings });
    opened.push(http);
    return http;
  };

  const auth = () => ({ authorization: `Bearer ${fake.secretKey}` });

  beforeAll(async () => {
    fake = await FakePaystack.start();
    paystack = new PaystackProvider({
      secretKey: fake.secretKey,
      baseUrl: fake.url,
      timeoutMs: 1000,
    });
  });
  afterAll(async () => {
    paystack.close();
    for (const http of opened) http.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.mode = 'ok';
    fake.calls.length = 0;
  });

  const checkout = (reference: string) =>
    paystack.openCheckout({
      reference,
      email: 'guest@example.com',
      amountMinor: 350001,
      currency: 'NGN',
      callbackUrl: null,
      subaccount: null,
      channels: ['card'],
      metadata: { reference },
    });

  it('opens a checkout with the secret key and a JSON body, and reads the answer', async () => {
    const outcome = await checkout('HTTP-OPEN-1');
    expect(outcome).toEqual({
      ok: true,
      authorizationUrl: expect.stringMatching(/^https:\/\/checkout\.paystack\.com\//),
      accessCode: expect.any(String),
    });
    expect(fake.calls).toEqual([
      {
        method: 'POST',
        path: '/transaction/initialize',
        authorization: `Bearer ${fake.secretKey}`,
        body: {
          email: 'guest@example.com',
          amount: 350001,
          currency: 'NGN',
          reference: 'HTTP-OPEN-1',
          metadata: { reference: 'HTTP-OPEN-1' },
          channels: ['card'],
        },
      },
    ]);
  });

  it('verifies, and lists refunds with a query string, over GET', async () => {
    await checkout('HTTP/VERIFY 2');
    fake.pay('HTTP/VERIFY 2');
    expect(await paystack.verify('HTTP/VERIFY 2')).toEqual({
      ok: true,
      charge: expect.objectContaining({ reference: 'HTTP/VERIFY 2', amountMinor: 350001 }),
    });
    expect(
      await paystack.findRefund({
        reference: 'HTTP/VERIFY 2',
        transactionId: null,
        amountMinor: 100,
        knownRefundIds: [],
      }),
    ).toEqual({ ok: true, refundId: null });
  });

  it('keeps one connection for calls one after another', async () => {
    const before = fake.connectionsOpened;
    for (let n = 0; n < 5; n++) expect((await checkout(`HTTP-KEEP-${n}`)).ok).toBe(true);
    expect(fake.connectionsOpened - before).toBeLessThanOrEqual(1);
  });

  it('opens no more connections than it may, however many calls run at once', async () => {
    const http = client({ maxSockets: 2 });
    const before = fake.connectionsOpened;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        http.call({ method: 'GET', path: '/nowhere', headers: auth() }),
      ),
    );
    for (const answer of answers) {
      expect(answer).toEqual({
        kind: 'answered',
        status: 404,
        body: { status: false, message: 'Not found' },
      });
    }
    expect(fake.connectionsOpened - before).toBe(2);
  });

  it('words the refusals as before: the provider’s message, else its HTTP status', async () => {
    fake.mode = 'refuse';
    expect(await checkout('HTTP-REFUSED-1')).toEqual({
      ok: false,
      error: 'Paystack refused the request: Transaction could not be processed',
    });
    fake.mode = 'error';
    expect(await paystack.checkCharge('HTTP-REFUSED-2')).toEqual({
      ok: false,
      error: 'Paystack refused the request: Bad gateway',
    });
    const foreign = new PaystackProvider({
      secretKey: 'sk_other',
      baseUrl: fake.url,
      timeoutMs: 1000,
    });
    fake.mode = 'ok';
    expect(
      await foreign.refund({ reference: 'X', amountMinor: 1, currency: 'NGN', reason: null }),
    ).toEqual({
      ok: false,
      error: 'Paystack refused the request: Invalid key',
    });
    foreign.close();
  });

  it('gives up at the deadline when Paystack does not answer, waiting or connected', async () => {
    fake.mode = 'stall';
    // One connection: the second call waits for it, and its wait counts in its deadline.
    const http = client({ timeoutMs: 300, maxSockets: 1 });
    const started = performance.now();
    const answers = await Promise.all([
      http.call({ method: 'POST', path: '/charge', headers: {}, body: { a: 1 } }),
      http.call({ method: 'GET', path: '/charge/X', headers: {} }),
    ]);
    expect(answers).toEqual([{ kind: 'timed out' }, { kind: 'timed out' }]);
    expect(performance.now() - started).toBeLessThan(2_000);
    // The stalled connection is dropped: the next call gets a new one.
    fake.mode = 'ok';
    expect(await http.call({ method: 'GET', path: '/nowhere', headers: auth() })).toMatchObject({
      kind: 'answered',
      status: 404,
    });

    fake.mode = 'stall';
    expect(await paystack.verify('HTTP-STALL-1')).toEqual({
      ok: false,
      error: 'Paystack did not answer within 1 s.',
    });
  });

  it('says Paystack could not be reached when the connection is refused', async () => {
    const port = await closedPort();
    const away = new PaystackProvider({
      secretKey: 'sk_test',
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 1000,
    });
    expect(await away.verify('HTTP-AWAY-1')).toEqual({
      ok: false,
      error: 'Paystack could not be reached.',
    });
    away.close();
  });
});

import {
  PaystackSandbox,
  SANDBOX_PORT,
  SANDBOX_SECRET_KEY,
  SandboxOptions,
  startPaystackSandbox,
} from '../tools/paystack-sandbox';
import { checkAnswers, readDoc, runBlocks, shellBlocks } from './support/doc-shell';
import { startTestApp, TestApp } from './support/test-app';

/**
 * docs/payments.md, "Try it without a Paystack account", run as written after
 * the walkthrough: a card order on `npm run paystack:sandbox`, paid on its
 * checkout, confirmed by its signed webhook, verified and partly refunded.
 * The blocks that start the sandbox and the service are the ones not run:
 * the test starts both, with the settings those blocks show.
 */
const SANDBOX_HOST = `127.0.0.1:${SANDBOX_PORT}`;
const startsAProcess = (code: string) => /\bnpm run (serve|paystack:sandbox)\b/.test(code);

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

describe('the Paystack sandbox, as docs/payments.md shows it', () => {
  let sandbox: PaystackSandbox;
  let t: TestApp;
  const options: SandboxOptions = {
    port: 0,
    secretKey: SANDBOX_SECRET_KEY,
    serviceUrl: 'http://127.0.0.1:1',
    namespace: 'svc',
  };

  beforeAll(async () => {
    sandbox = await startPaystackSandbox(options);
    t = await startTestApp({
      API_KEYS: '',
      PAYSTACK_SECRET_KEY: SANDBOX_SECRET_KEY,
      PAYSTACK_BASE_URL: sandbox.url,
    });
    options.serviceUrl = t.baseUrl;
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  it('starts the service with the settings the sandbox prints', () => {
    const blocks = shellBlocks(
      section(readDoc('docs/payments.md'), 'Try it without a Paystack account'),
    );
    const starts = blocks.filter((block) => startsAProcess(block.code)).map((block) => block.code);
    expect(starts).toEqual([
      'npm run paystack:sandbox',
      `PAYSTACK_SECRET_KEY=${SANDBOX_SECRET_KEY} PAYSTACK_BASE_URL=http://${SANDBOX_HOST} npm run serve`,
    ]);
  });

  it('takes a walkthrough order from checkout to paid and partly refunded', async () => {
    const walkthrough = shellBlocks(readDoc('docs/getting-started.md')).filter(
      (block) => !/^npm /.test(block.code.trim()),
    );
    const sandboxBlocks = shellBlocks(
      section(readDoc('docs/payments.md'), 'Try it without a Paystack account'),
    ).filter((block) => !startsAProcess(block.code));
    expect(sandboxBlocks.filter((block) => block.expected.length > 0)).toHaveLength(4);
    const runs = await runBlocks([...walkthrough, ...sandboxBlocks], t.baseUrl, {
      [SANDBOX_HOST]: new URL(sandbox.url).host,
    });
    expect(checkAnswers(runs.slice(walkthrough.length), 'docs/payments.md')).toEqual([]);

    // The checkout, the webhooks and the refund went through the fake Paystack.
    const paths = sandbox.fake.calls.map((call) => `${call.method} ${call.path}`);
    expect(paths).toContain('POST /transaction/initialize');
    expect(paths).toContain('POST /refund');
    const [transaction] = [...sandbox.fake.transactions.values()];
    expect(transaction).toMatchObject({ status: 'success', amount: 350000, refunded: 100000 });
  });

  it('pays from the order page by USSD and by a transfer in two parts, as the docs show', async () => {
    const walkthrough = shellBlocks(readDoc('docs/getting-started.md')).filter(
      (block) => !/^npm /.test(block.code.trim()),
    );
    const chargeBlocks = shellBlocks(
      section(
        readDoc('docs/payments.md'),
        'Pay from the order page: USSD, mobile money, bank transfer',
      ),
    );
    expect(chargeBlocks.filter((block) => block.expected.length > 0)).toHaveLength(2);
    const runs = await runBlocks([...walkthrough, ...chargeBlocks], t.baseUrl, {
      [SANDBOX_HOST]: new URL(sandbox.url).host,
    });
    expect(checkAnswers(runs.slice(walkthrough.length), 'docs/payments.md')).toEqual([]);
    const paths = sandbox.fake.calls.map((call) => `${call.method} ${call.path}`);
    expect(paths).toContain('POST /charge');
  });

  it('serves a checkout page with a Pay button for an open checkout', async () => {
    const initialized = await fetch(`${sandbox.url}/transaction/initialize`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SANDBOX_SECRET_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: 'guest@example.com', amount: 120000, currency: 'NGN' }),
    });
    const { data } = (await initialized.json()) as { data: { authorization_url: string } };
    expect(data.authorization_url.startsWith(`${sandbox.url}/checkout/`)).toBe(true);
    const page = await fetch(data.authorization_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('NGN 1200.00');
    expect(html).toContain('<button>Pay</button>');
    const refused = await fetch(`${sandbox.url}/transaction/initialize`, { method: 'POST' });
    expect(refused.status).toBe(401);
  });
});

import http from 'node:http';
import { AddressInfo } from 'node:net';
import { RESPONSE_BODY_LIMIT, sendWebhook } from './webhook-sender';

describe('sending one webhook', () => {
  let server: http.Server;
  let base: string;
  const hits: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        if (req.url === '/redirect') {
          res.writeHead(302, { location: `${base}/elsewhere` }).end();
        } else if (req.url === '/big') {
          res.writeHead(200).end('y'.repeat(10 * RESPONSE_BODY_LIMIT));
        } else if (req.url === '/silent') {
          // Never answers.
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (path: string, timeoutMs?: number) =>
    sendWebhook(`${base}${path}`, { 'webhook-id': 'evt' }, '{}', { allowPrivate: true, timeoutMs });

  it('counts a 2xx as success', async () => {
    expect(await send('/ok')).toMatchObject({ ok: true, status: 204, error: null });
  });

  it('does not follow a redirect: it is a failed attempt', async () => {
    const result = await send('/redirect');
    expect(result).toMatchObject({ ok: false, status: 302 });
    expect(result.error).toMatch(/redirects are not followed/);
    expect(hits).not.toContain('/elsewhere');
  });

  it('keeps at most 1 KB of the answer', async () => {
    const result = await send('/big');
    expect(result.ok).toBe(true);
    expect(Buffer.byteLength(result.body!)).toBe(RESPONSE_BODY_LIMIT);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const result = await send('/silent', 200);
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/no answer within/);
  });

  it('refuses a blocked IP literal without connecting', async () => {
    const before = hits.length;
    const result = await sendWebhook(`${base}/ok`, {}, '{}', { allowPrivate: false });
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/^Refused to connect: 127\.0\.0\.1 is a loopback address/);
    expect(hits).toHaveLength(before);
  });
});

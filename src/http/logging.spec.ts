import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Options } from 'pino-http';
import { accessLog } from './access-log';
import { loadConfig } from '../config/config';
import { loggerParams, redactHeaders, redactSecrets, redactText, redactUrl } from './logging';

describe('log redaction', () => {
  it('censors password* and token* fields at any depth', () => {
    expect(
      redactSecrets({
        email: 'a@b.c',
        password: 'p',
        password_confirmation: 'p',
        body: {
          new_password: 'kept?',
          token_to_reset_password: '123456',
          nested: [{ access_token: 'jwt' }],
        },
      }),
    ).toEqual({
      email: 'a@b.c',
      password: '[redacted]',
      password_confirmation: '[redacted]',
      body: {
        new_password: '[redacted]',
        token_to_reset_password: '[redacted]',
        nested: [{ access_token: '[redacted]' }],
      },
    });
  });

  it('censors credentials in query strings', () => {
    expect(redactUrl('/orders/stream?api_key=k&access_token=t&x=1')).toBe(
      '/orders/stream?api_key=[redacted]&access_token=[redacted]&x=1',
    );
  });

  it.each([
    ['/order/1?order_token=abc', '/order/1?order_token=[redacted]'],
    ['/order/1?x=1&order_token=abc&y=2', '/order/1?x=1&order_token=[redacted]&y=2'],
    ['/order/1?order%5Ftoken=abc', '/order/1?order%5Ftoken=[redacted]'],
    ['/upload/k?expires=1&signature=s', '/upload/k?expires=1&signature=[redacted]'],
    ['/invite?invitation_token=i', '/invite?invitation_token=[redacted]'],
    ['/orders?status=pending&page=2', '/orders?status=pending&page=2'],
  ])('censors %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('censors secret headers by name', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer jwt',
        'x-api-key': 'k',
        'x-order-token': 'o',
        cookie: 'c',
        'x-paystack-signature': 's',
        'content-type': 'application/json',
        'x-request-id': 'r',
      }),
    ).toEqual({
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      'x-order-token': '[redacted]',
      cookie: '[redacted]',
      'x-paystack-signature': '[redacted]',
      'content-type': 'application/json',
      'x-request-id': 'r',
    });
  });

  it('censors tokens inside free text: URLs, Bearer credentials, JWTs', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect(
      redactText(`GET http://h/o?order_token=abc failed; sent Bearer xyz.1 and ${jwt} and 42`),
    ).toBe(
      'GET http://h/o?order_token=[redacted] failed; sent Bearer [redacted] and [redacted] and 42',
    );
  });

  it('censors each kind of secret alone, and leaves text that holds none as it is', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect(redactText('/orders?access_token=abc')).toBe('/orders?access_token=[redacted]');
    expect(redactText('bearer abc.def')).toBe('bearer [redacted]');
    expect(redactText(`sent ${jwt}`)).toBe('sent [redacted]');
    const plain = 'Mozilla/5.0 (X11; Linux x86_64) /entity/svc_business_menu_item';
    expect(redactText(plain)).toBe(plain);
    expect(redactText('/list?per_page=100&sort_by=extra_data.sort_position')).toBe(
      '/list?per_page=100&sort_by=extra_data.sort_position',
    );
  });
});

describe('access log', () => {
  /** The service's access-log options at `level`, and the lines written to a stream. */
  function logCapture(level: string): { lines: string[]; stream: Writable; options: Options } {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const config = loadConfig({ LOG_LEVEL: level, JWT_SECRET: 'x'.repeat(40) });
    return { lines, stream, options: loggerParams(config).pinoHttp as Options };
  }

  it('serializes a request only for a line it writes', async () => {
    const { lines, stream, options } = logCapture('warn');
    const serializeRequest = options.serializers!.req as (req: unknown) => unknown;
    let serialized = 0;
    const middleware = accessLog(
      {
        ...options,
        serializers: {
          ...options.serializers,
          req: (req: unknown) => {
            serialized += 1;
            return serializeRequest(req);
          },
        },
      },
      stream,
    );
    const server = createServer((req, res) => {
      middleware(req, res);
      if (req.url === '/warn') req.log.warn('worth a line');
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    for (const path of ['/a', '/b', '/warn'])
      await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // At warn, no access line: the requests' URLs and headers were never serialized.
    expect(serialized).toBe(0);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      msg: 'worth a line',
      request_id: expect.any(String),
    });
  });

  it('writes the status code and duration of each request', async () => {
    const { lines, stream, options } = logCapture('info');
    const middleware = accessLog(options, stream);
    const server = createServer((req, res) => {
      middleware(req, res);
      res.statusCode = 418;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/public/thing?token=secret`);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const entry = JSON.parse(lines.find((line) => line.includes('request completed'))!);
    expect(entry.res.statusCode).toBe(418);
    expect(typeof entry.responseTime).toBe('number');
    expect(entry.req.url).toBe('/public/thing?token=[redacted]');
  });

  it('censors secrets in the URL, headers, message and error of every line', async () => {
    const { lines, stream, options } = logCapture('info');
    const middleware = accessLog(options, stream);
    const server = createServer((req, res) => {
      middleware(req, res);
      const error = Object.assign(new Error('fetch http://x/y?order_token=sekrit-3 failed'), {
        parameters: ['sekrit-4'],
      });
      req.log.error({ err: error, body: { token_to_reset_password: 'sekrit-5' } }, 'failed');
      req.log.warn('Bearer sekrit-6 was refused at /o?access_token=sekrit-7');
      res.statusCode = 500;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/order/1?order_token=sekrit-1`, {
      headers: { 'x-order-token': 'sekrit-2', authorization: 'Bearer sekrit-8' },
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const text = lines.join('');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    // Every line names its request; the request's URL and headers are in its access line.
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ids = new Set(entries.map((entry) => entry.request_id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(String));
    const access = entries.find((entry) => entry.msg === 'request errored');
    expect((access?.req as { url: string }).url).toBe('/order/1?order_token=[redacted]');
    expect((access?.req as { headers: Record<string, string> }).headers['x-order-token']).toBe(
      '[redacted]',
    );
    expect(text).toContain('[redacted]');
    expect(text).not.toMatch(/sekrit/);
  });
});

import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp, Options } from 'pino-http';
import { loadConfig } from '../config/config';
import { loggerParams, redactSecrets, redactUrl } from './logging';

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
});

describe('access log', () => {
  it('writes the status code and duration of each request', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const config = loadConfig({ LOG_LEVEL: 'info', JWT_SECRET: 'x'.repeat(40) });
    const { pinoHttp: options } = loggerParams(config) as { pinoHttp: Options };
    const middleware = pinoHttp(options, stream);
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
});

import http from 'node:http';
import https from 'node:https';

/**
 * What one call to a provider came back with: its answer (the HTTP status
 * and the body read as JSON, null when it is not JSON or could not be read
 * whole), or why there is none.
 */
export type JsonAnswer =
  | { kind: 'answered'; status: number; body: unknown }
  | { kind: 'timed out' }
  | { kind: 'unreachable' };

export interface JsonRequest {
  method: 'GET' | 'POST';
  /** Appended to the base URL as it is written (`/transaction/verify/…?…`). */
  path: string;
  headers: Record<string, string>;
  /** Sent as JSON when given. */
  body?: unknown;
}

export interface ProviderHttpSettings {
  /** The provider's base URL (http or https, no trailing slash needed). */
  baseUrl: string;
  /** The whole call's deadline: waiting for a connection, sending, and reading the answer. */
  timeoutMs: number;
  /** At most this many connections to the provider at once; more calls wait for one. */
  maxSockets?: number;
}

/** Connections kept to one provider at most. */
export const PROVIDER_MAX_SOCKETS = 32;
/** A kept connection unused this long is closed (sooner when the provider's Keep-Alive says so). */
export const PROVIDER_IDLE_SOCKET_MS = 4_000;
/** Who calls (some gateways refuse a request that names no client). */
const USER_AGENT = { 'user-agent': 'menu-order-service' };
/** An answer longer than this is not read (the call counts as answered without a body). */
export const PROVIDER_MAX_ANSWER_BYTES = 1 << 20;

/**
 * The HTTP client of a payment provider's API: node:http(s) with
 * keep-alive connections (a bounded number, reused across calls), one
 * deadline over the whole call, JSON in and out. It never throws: a
 * failure comes back as what it was, for the provider to put in words.
 */
export class ProviderHttp {
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly hostname: string;
  private readonly port: number | undefined;
  /** The base URL's path, prepended to each call's path. */
  private readonly prefix: string;

  constructor(private readonly settings: ProviderHttpSettings) {
    const base = new URL(settings.baseUrl);
    const secure = base.protocol === 'https:';
    this.transport = secure ? https : http;
    const options = {
      keepAlive: true,
      maxSockets: settings.maxSockets ?? PROVIDER_MAX_SOCKETS,
      maxFreeSockets: settings.maxSockets ?? PROVIDER_MAX_SOCKETS,
      timeout: PROVIDER_IDLE_SOCKET_MS,
    };
    this.agent = secure ? new https.Agent(options) : new http.Agent(options);
    this.hostname = base.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = base.port ? Number(base.port) : undefined;
    this.prefix = settings.baseUrl.slice(base.origin.length);
  }

  call(request: JsonRequest): Promise<JsonAnswer> {
    return new Promise((resolve) => {
      const payload =
        request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
      let settled = false;
      const finish = (answer: JsonAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(answer);
      };
      const req = this.transport.request({
        agent: this.agent,
        hostname: this.hostname,
        port: this.port,
        method: request.method,
        path: this.prefix + request.path,
        headers: payload
          ? {
              ...USER_AGENT,
              ...request.headers,
              'content-type': 'application/json',
              'content-length': String(payload.length),
            }
          : { ...USER_AGENT, ...request.headers },
      });
      const deadline = setTimeout(() => {
        finish({ kind: 'timed out' });
        req.destroy();
      }, this.settings.timeoutMs);
      req.on('error', () => finish({ kind: 'unreachable' }));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= PROVIDER_MAX_ANSWER_BYTES) chunks.push(chunk);
          else {
            finish({ kind: 'answered', status, body: null });
            res.destroy();
          }
        });
        res.on('end', () => finish({ kind: 'answered', status, body: parsed(chunks) }));
        // Cut off mid-answer: answered, but without a body to read.
        res.on('error', () => finish({ kind: 'answered', status, body: null }));
        res.on('aborted', () => finish({ kind: 'answered', status, body: null }));
      });
      req.end(payload);
    });
  }

  /** Closes the kept connections (at shutdown). */
  close(): void {
    this.agent.destroy();
  }
}

function parsed(chunks: Buffer[]): unknown {
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

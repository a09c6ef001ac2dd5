import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

interface HeldRequest {
  path: string;
  timer: NodeJS.Timeout | undefined;
  release: () => void;
}

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** performance.now() when the request had arrived. */
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1, as an integrator would run one: it keeps
 * every request and answers each with the next status of `answers` (200
 * when none is left). A path in `slowPaths` answers only after its delay, as
 * a receiver on a bad connection would.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Statuses for the next requests, first one first. */
  answers: number[] = [];
  answerBody = 'ok';
  /** Milliseconds a request to the path waits for its answer (Infinity: until told). */
  readonly slowPaths = new Map<string, number>();
  private server: http.Server | undefined;
  private port = 0;
  /** Requests waiting for their answer, by path, and the most that ever waited at once. */
  private readonly waiting = new Map<string, number>();
  private readonly mostWaiting = new Map<string, number>();
  private readonly held = new Set<HeldRequest>();
  private readonly watchers = new Set<() => void>();

  /** Listens (again, on the same port when it listened before). */
  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string') headers[name] = value;
        }
        const path = req.url ?? '/';
        this.received.push({
          path,
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: performance.now(),
        });
        const status = this.answers.shift() ?? 200;
        const answer = () => {
          res.statusCode = status;
          res.end(this.answerBody);
        };
        const delay = this.slowPaths.get(path);
        if (delay === undefined) answer();
        else this.hold(path, delay, answer);
        for (const watcher of [...this.watchers]) watcher();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Requests to `path` waiting for their answer now. */
  waitingAt(path: string): number {
    return this.waiting.get(path) ?? 0;
  }

  /** The most requests to `path` that ever waited for their answer at once. */
  mostWaitingAt(path: string): number {
    return this.mostWaiting.get(path) ?? 0;
  }

  /** Answers every held request now (a test that is done with a slow receiver). */
  answerHeldNow(): void {
    for (const request of [...this.held]) request.release();
  }

  /** Resolves once `count` requests have arrived at `path`; rejects after `timeoutMs`. */
  until(path: string, count: number, timeoutMs = 20_000): Promise<void> {
    const done = () => this.at(path).length >= count;
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`Timed out waiting for ${count} requests at ${path}`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
    });
  }

  /** Stops listening: connections are refused until start() again. */
  async stop(): Promise<void> {
    this.answerHeldNow();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests that arrived at `path`. */
  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Answers every request held at `path` `delayMs` from now (and not before). */
  answerHeldAfter(path: string, delayMs: number): void {
    for (const request of this.held) {
      if (request.path !== path) continue;
      clearTimeout(request.timer);
      request.timer = setTimeout(request.release, delayMs);
    }
  }

  /** Holds the answer `delayMs` (Infinity: until answerHeldNow or answerHeldAfter). */
  private hold(path: string, delayMs: number, answer: () => void): void {
    const now = (this.waiting.get(path) ?? 0) + 1;
    this.waiting.set(path, now);
    this.mostWaiting.set(path, Math.max(now, this.mostWaiting.get(path) ?? 0));
    const request: HeldRequest = {
      path,
      timer: undefined,
      release: () => {
        clearTimeout(request.timer);
        if (!this.held.delete(request)) return;
        this.waiting.set(path, (this.waiting.get(path) ?? 1) - 1);
        answer();
      },
    };
    if (Number.isFinite(delayMs)) request.timer = setTimeout(request.release, delayMs);
    this.held.add(request);
  }
}

/** Verifies a request as an integrator would, with the standardwebhooks library; answers the event. */
export function verifyWebhook(secret: string, request: ReceivedWebhook): any {
  return new Webhook(secret).verify(request.body, request.headers);
}

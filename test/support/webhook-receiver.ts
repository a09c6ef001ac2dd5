import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1, as an integrator would run one: it keeps
 * every request and answers each with the next status of `answers` (200
 * when none is left), or with what `answer` decides.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Statuses for the next requests, first one first. */
  answers: number[] = [];
  answerBody = 'ok';
  private server: http.Server | undefined;
  private port = 0;

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
        this.received.push({
          path: req.url ?? '/',
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.statusCode = this.answers.shift() ?? 200;
        res.end(this.answerBody);
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

  /** Stops listening: connections are refused until start() again. */
  async stop(): Promise<void> {
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
}

/** Verifies a request as an integrator would, with the standardwebhooks library; answers the event. */
export function verifyWebhook(secret: string, request: ReceivedWebhook): any {
  return new Webhook(secret).verify(request.body, request.headers);
}

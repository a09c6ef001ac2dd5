import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import {
  blockedAddressReason,
  guardedLookup,
  hostOf,
  webhookUrlShapeProblem,
} from './domain/url-guard';

/** A receiver that has not answered within this is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is kept. */
export const RESPONSE_BODY_LIMIT = 1024;

export interface SendResult {
  ok: boolean;
  status: number | null;
  /** The start of the answer body, at most RESPONSE_BODY_LIMIT bytes. */
  body: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * POSTs one signed webhook: no redirects followed (a 3xx is a failure), a
 * 10 s limit on the whole exchange, at most 1 KB of the answer read, and,
 * unless private addresses are allowed, the address connected to checked
 * against the refused ranges at connection time.
 */
export async function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs?: number; lookup?: LookupFunction },
): Promise<SendResult> {
  const started = performance.now();
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...result,
    durationMs: Math.round(performance.now() - started),
  });
  const shape = webhookUrlShapeProblem(rawUrl);
  if (shape) return done({ ok: false, status: null, body: null, error: `The URL ${shape}.` });
  const url = new URL(rawUrl);
  const host = hostOf(url);
  if (!options.allowPrivate && isIP(host)) {
    const reason = blockedAddressReason(host);
    if (reason) {
      return done({ ok: false, status: null, body: null, error: `Refused to connect: ${reason}.` });
    }
  }
  const transport = url.protocol === 'https:' ? https : http;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(result));
    };
    const request = transport.request(url, {
      method: 'POST',
      // A fresh connection each time: no pooled socket to a host that changed address.
      agent: false,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'menu-order-service-webhooks/1',
        connection: 'close',
      },
      ...(options.allowPrivate ? {} : { lookup: options.lookup ?? guardedLookup() }),
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    request.on('error', (error) => {
      settle({ ok: false, status: null, body: null, error: error.message || String(error) });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        const ok = status >= 200 && status < 300;
        let error: string | null = null;
        if (status >= 300 && status < 400) {
          error = `The receiver answered ${status} (a redirect${response.headers.location ? ` to ${response.headers.location}` : ''}); redirects are not followed.`;
        } else if (!ok) {
          error = `The receiver answered ${status}.`;
        }
        settle({ ok, status, body: text || null, error });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) finish();
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.end(body);
  });
}

import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { StorefrontAnswer } from './storefront-document';

const gunzipAsync = promisify(gunzip);

/**
 * The bytes all held answers may take together. The largest storefront (1000
 * items with options) is about a megabyte plain and a tenth of that gzipped.
 */
const MAX_BYTES = 16 * 1024 * 1024;

export interface Held {
  answer: StorefrontAnswer;
  bytes: number;
}

/**
 * The last answer this process made of each storefront, held by its ETag and
 * used only after the database has confirmed that ETag is still the current
 * one (the stored document is fresh and its ETag with the answer-time fields
 * is this one). A read then costs one small query and no bytes of the
 * document: no body to fetch, inflate or concatenate again, whatever the
 * in-process cache's TTL, and never an answer older than the last committed
 * write, since the database is asked every time. The least recently used
 * answers go first when the byte budget is reached.
 */
export class HeldAnswers {
  private readonly entries = new Map<string, Held>();
  private bytes = 0;

  constructor(private readonly maxBytes = MAX_BYTES) {}

  /** The held answer of `key` if its ETag is `etag`, with the bytes it holds. */
  get(key: string, etag: string): Held | undefined {
    const held = this.entries.get(key);
    if (!held || held.answer.etag !== etag) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, held);
    return held;
  }

  /** Whether an answer of `key` is held, whatever its ETag. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Holds `answer` for `key` in place of any older one; `bytes` counts both of its forms. */
  hold(key: string, answer: StorefrontAnswer, bytes: number): void {
    this.drop(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { answer, bytes });
    this.bytes += bytes;
    this.trim();
  }

  /** Counts `bytes` for the held answer of `key` if it is `answer` (its plain form was added). */
  recount(key: string, answer: StorefrontAnswer, bytes: number): void {
    const held = this.entries.get(key);
    if (!held || held.answer !== answer) return;
    this.bytes += bytes - held.bytes;
    held.bytes = bytes;
    this.trim();
  }

  private trim(): void {
    for (const [oldest, held] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= held.bytes;
    }
  }

  private drop(key: string): void {
    const held = this.entries.get(key);
    if (!held) return;
    this.entries.delete(key);
    this.bytes -= held.bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Inflates the plain form of answers read in their gzip form only, for the
 * clients that do not accept gzip: once per answer, on the thread pool,
 * and readers asking at the same time share one inflation.
 */
export class PlainBodies {
  private readonly inflating = new WeakMap<StorefrontAnswer, Promise<void>>();

  /** Adds `answer.body` if it lacks it; true when it was added by this call or one it joined. */
  async add(answer: StorefrontAnswer): Promise<boolean> {
    if (answer.body || !answer.gzipped) return false;
    let inflating = this.inflating.get(answer);
    if (!inflating) {
      inflating = gunzipAsync(answer.gzipped).then((body) => {
        answer.body = body;
      });
      this.inflating.set(answer, inflating);
      const forget = () => this.inflating.delete(answer);
      inflating.then(forget, forget);
    }
    await inflating;
    return true;
  }
}

/** Bytes of finished QR answers each process keeps. */
const BUDGET_BYTES = 16 * 1024 * 1024;

/**
 * Finished QR answers (images and sheets) by ETag, at most 16 MiB together,
 * the least recently used out first; an answer over a quarter of that is
 * not kept. An ETag is made of every input of the answer, so an entry is
 * never stale: a change of a title or a meta_key asks for another key.
 */
export class QrAnswerCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly budget = BUDGET_BYTES) {}

  get(etag: string): Buffer | undefined {
    const body = this.entries.get(etag);
    if (body) {
      // Most recently used last: the Map's order is the eviction order.
      this.entries.delete(etag);
      this.entries.set(etag, body);
    }
    return body;
  }

  set(etag: string, body: Buffer): void {
    if (body.length > this.budget / 4 || this.entries.has(etag)) return;
    for (const [oldest, old] of this.entries) {
      if (this.bytes + body.length <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= old.length;
    }
    this.entries.set(etag, body);
    this.bytes += body.length;
  }

  /** Bytes held, for tests of the bound. */
  get size(): number {
    return this.bytes;
  }
}

import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';

/**
 * Finished list answers (the bytes sent) by ETag, in this process, at most
 * LIST_PAGE_CACHE_BYTES together (0 keeps nothing); the least recently used
 * goes first. Only answers whose ETag holds their parent's version are kept
 * (see EntityListService.listEntities): a request reads the current version
 * from the database and looks up the ETag made with it, so a write anywhere,
 * in any process, moves every later request to another key, and an entry of
 * an older version is never answered; it only waits to be pushed out.
 */
@Injectable()
export class ListPageCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(@InjectConfig() config: AppConfig) {
    this.maxBytes = config.listPageCacheBytes;
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

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
    // An answer larger than a quarter of the budget would push out most others for one page.
    if (!this.enabled || body.length > this.maxBytes / 4) return;
    this.remove(etag);
    for (const [oldest, old] of this.entries) {
      if (this.bytes + body.length <= this.maxBytes) break;
      this.remove(oldest, old);
    }
    this.entries.set(etag, body);
    this.bytes += body.length;
  }

  private remove(etag: string, body = this.entries.get(etag)): void {
    if (!body) return;
    this.entries.delete(etag);
    this.bytes -= body.length;
  }
}

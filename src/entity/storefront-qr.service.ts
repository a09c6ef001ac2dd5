import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { QR_DEFAULT_SIZE } from './dto/storefront-qr-query.dto';
import { parseTableList } from './domain/table-list';
import { matchesEtag } from './list-etag';
import { QrAnswerCache } from './qr-answer-cache';
import { RenderJob } from './qr-render/render';
import { QrRenderer } from './qr-renderer';
import { StorefrontService } from './storefront.service';

/** A QR answer: its bytes (none for a 304) and its ETag. */
export type StorefrontQr = {
  contentType: string;
  etag: string;
} & ({ notModified: true } | { notModified?: false; body: Buffer });

/** What the caller sends along: its address (for the rate limit) and If-None-Match. */
export interface QrRequest {
  ip: string;
  ifNoneMatch?: string;
}

/**
 * Changes when the bytes rendered for the same inputs change (the drawing,
 * the fonts, the library), so that no ETag of an older rendering still matches.
 */
const RENDERING_VERSION = 2;

/** A table's storefront address: the storefront uses `table` to fill the on-premise location. */
function tableUrl(url: string, table: string): string {
  return `${url}?table=${encodeURIComponent(table)}`;
}

/**
 * Print-ready QR codes of a public menu's storefront address,
 * `{FRONT_URL}/app/<business_meta_key>/menu/<menu_meta_key>`, each segment
 * percent-encoded as encodeURIComponent does. They hold nothing but that
 * public address, so no key is needed; a menu that is not public has none.
 * A table's code adds `?table=<table>` (percent-encoded), and the sheet
 * prints one card per table.
 *
 * Each answer costs CPU, so each is bounded: limited per IP (images and
 * sheets apart), rendered on the renderer's thread, and the same bytes for
 * the same inputs, with an ETag made of those inputs: a client that holds
 * the answer gets 304 without anything being rendered, and a rendered
 * answer is kept in a bounded cache for the next client.
 */
// R73: costly public answers are bounded.
@Injectable()
export class StorefrontQrService {
  private readonly cache = new QrAnswerCache();
  /** Renderings under way by ETag: simultaneous requests for one answer share one. */
  private readonly rendering = new Map<string, Promise<Buffer>>();

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly storefronts: StorefrontService,
    private readonly renderer: QrRenderer,
    private readonly limiter: RateLimitService,
  ) {}

  async svg(
    businessMetaKey: string,
    menuMetaKey: string,
    table: string | undefined,
    request: QrRequest,
  ): Promise<StorefrontQr> {
    await this.limit('qr-image-ip', request, this.config.rateLimitQrPerMinute);
    const { base } = await this.storefront(businessMetaKey, menuMetaKey);
    const url = table === undefined ? base : tableUrl(base, table);
    return this.answer({ kind: 'svg', base, url }, 'image/svg+xml; charset=utf-8', request);
  }

  async png(
    businessMetaKey: string,
    menuMetaKey: string,
    size: number | undefined,
    table: string | undefined,
    request: QrRequest,
  ): Promise<StorefrontQr> {
    await this.limit('qr-image-ip', request, this.config.rateLimitQrPerMinute);
    const { base } = await this.storefront(businessMetaKey, menuMetaKey);
    const url = table === undefined ? base : tableUrl(base, table);
    const job: RenderJob = { kind: 'png', base, url, size: size ?? QR_DEFAULT_SIZE };
    return this.answer(job, 'image/png', request);
  }

  /**
   * The A4 sheet of table cards of a public menu, one card per table of
   * `tables` (see parseTableList: 400 for a malformed list, 422 beyond 200).
   */
  async sheet(
    businessMetaKey: string,
    menuMetaKey: string,
    tables: string | undefined,
    label: string | undefined,
    request: QrRequest,
  ): Promise<StorefrontQr> {
    await this.limit('qr-sheet-ip', request, this.config.rateLimitQrSheetPerMinute);
    const list = parseTableList(tables);
    if (!list.ok) {
      const detail = [{ field: 'tables', message: list.message }];
      throw list.status === 400
        ? ApiError.validation(detail, list.message)
        : ApiError.unprocessable(list.message, detail);
    }
    const { base, business, menu } = await this.storefront(businessMetaKey, menuMetaKey);
    const job: RenderJob = {
      kind: 'sheet',
      base,
      business,
      menu,
      cards: list.tables.map((table) => ({
        caption: `${label ?? 'Table'} ${table}`,
        url: tableUrl(base, table),
      })),
    };
    return this.answer(job, 'application/pdf', request);
  }

  private limit(bucket: string, request: QrRequest, perMinute: number): Promise<void> {
    return this.limiter.consume(bucket, request.ip || 'unknown', perMinute, 60);
  }

  private async storefront(
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<{ base: string; business: string; menu: string }> {
    const { business, menu } = await this.storefronts.publicMenu(businessMetaKey, menuMetaKey);
    // Found by their meta_keys, so both have one; the check only tells the compiler.
    if (!business.metaKey || !menu.metaKey) {
      throw ApiError.notFound('This business has no public menu with this meta_key.');
    }
    // The stored meta_keys, so every spelling of the address prints the same code.
    const base = `${this.config.frontUrl}/app/${encodeURIComponent(business.metaKey)}/menu/${encodeURIComponent(menu.metaKey)}`;
    return {
      base,
      business: business.titleName ?? business.metaKey,
      menu: menu.titleName ?? menu.metaKey,
    };
  }

  /** 304 for the ETag the client holds; else the cached bytes, or a rendering. */
  private async answer(
    job: RenderJob,
    contentType: string,
    request: QrRequest,
  ): Promise<StorefrontQr> {
    const digest = createHash('sha256')
      .update(JSON.stringify([RENDERING_VERSION, job]))
      .digest('base64url');
    const etag = `"${digest.slice(0, 32)}"`;
    if (matchesEtag(request.ifNoneMatch, etag)) return { notModified: true, contentType, etag };
    const body = this.cache.get(etag) ?? (await this.rendered(etag, job));
    return { body, contentType, etag };
  }

  private rendered(etag: string, job: RenderJob): Promise<Buffer> {
    const running = this.rendering.get(etag);
    if (running) return running;
    const rendering = this.renderer.render(job).then((outcome) => {
      if (!outcome.ok) throw tooLong(outcome.tooLong);
      const body = Buffer.from(outcome.body.buffer, outcome.body.byteOffset, outcome.body.length);
      this.cache.set(etag, body);
      return body;
    });
    this.rendering.set(etag, rendering);
    const forget = () => this.rendering.delete(etag);
    rendering.then(forget, forget);
    return rendering;
  }
}

/** 422: the storefront address does not fit in a QR code, blamed on the part that made it so. */
function tooLong(field: 'meta_key' | 'table'): ApiError {
  const message =
    field === 'meta_key'
      ? "The storefront address is too long for a QR code: shorten the business's or the menu's meta_key."
      : 'The storefront address with this table is too long for a QR code: use a shorter table name.';
  return ApiError.unprocessable(message, [{ field, message }]);
}

import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Clock } from '../common/clock';
import { ApiError } from '../http/api-error';
import { successBody } from '../http/envelope';
import { StorefrontResponseDto, toEntityResponse } from './dto/entity-response.dto';
import { MAX_PER_PAGE } from './dto/list-entities-query.dto';
import { EntityRepository } from './entity.repository';
import { EntityTypeRegistry } from './entity-types';
import { isoInZone, OpenState, openState, readOpeningHours } from './domain/opening-hours';
import { EntityRecord } from './entity-record.entity';
import { StorefrontCache } from './storefront-cache';

export const STOREFRONT_MESSAGE = 'Storefront found';

const gzipAsync = promisify(gzip);

/**
 * A storefront answer ready to send: the enveloped JSON and its ETag. The
 * cache keeps these bytes, so a cached answer costs no serialisation at all
 * (a 1000-item menu is some 700 KB of JSON), and with them their gzip form,
 * made once per build for the clients that accept it (every browser does):
 * about a tenth of the bytes to send.
 */
export interface StorefrontAnswer {
  body: Buffer;
  /** Only for cached answers: compressing each uncached answer would cost more than it saves here. */
  gzipped?: Buffer;
  etag: string;
  /**
   * The answer's `open_now` holds from `validFrom` until `validUntil` (ms of
   * the service clock; null: no known end). Outside that span a cached
   * answer is built again, so it never says open once the business has closed.
   */
  validFrom: number;
  validUntil: number | null;
}

/** Whether a business takes orders now, and when that changes, as the storefront and placement tell it. */
export interface BusinessOpenState extends OpenState {
  /** `nextChangeAt` as ISO 8601 with the business's own offset; null when not known. */
  nextChangeText: string | null;
}

/** The weak ETag Express gives a JSON body by default, so conditional GETs behave as elsewhere. */
function weakEtag(body: Buffer): string {
  const hash = createHash('sha1').update(body).digest('base64').substring(0, 27);
  return `W/"${body.length.toString(16)}-${hash}"`;
}

/**
 * D17: business, menu and sorted items by the two meta_keys of the
 * storefront URL, in at most three indexed queries, behind a short cache that
 * every entity write invalidates.
 *
 * With the cache on, the readers of one storefront share its reads: a miss
 * that finds a build of the same key under way (and no write since it began)
 * waits for that build instead of starting its own, and an entry past half
 * its TTL is rebuilt in the background while it is still answered, so a busy
 * storefront is never rebuilt by dozens of requests at once when it expires.
 */
@Injectable()
export class StorefrontService {
  private readonly logger = new Logger('Storefront');
  /** Builds under way by cache key, with the cache generation they started in. */
  private readonly building = new Map<
    string,
    { mark: number; answer: Promise<StorefrontAnswer> }
  >();

  constructor(
    private readonly types: EntityTypeRegistry,
    private readonly repository: EntityRepository,
    private readonly cache: StorefrontCache<StorefrontAnswer>,
    private readonly clock: Clock,
  ) {}

  /**
   * The one place that decides whether a business is open: its
   * `opening_hours` and `accepting_orders` at the service clock's now.
   * Placement and the storefront answer both ask here.
   */
  openStateOf(business: Pick<EntityRecord, 'extraData'>): BusinessOpenState {
    const hours = readOpeningHours(business.extraData.opening_hours);
    const switchValue = business.extraData.accepting_orders;
    const accepting = switchValue !== false && switchValue !== 'false';
    const state = openState(hours, accepting, this.clock.now());
    const nextChangeText = state.nextChangeAt
      ? hours
        ? isoInZone(state.nextChangeAt, hours.timezone)
        : state.nextChangeAt.toISOString()
      : null;
    return { ...state, nextChangeText };
  }

  /** A cached answer is served only while its open state still holds. */
  private stillTrue(answer: StorefrontAnswer): boolean {
    const now = this.clock.nowMs();
    return now >= answer.validFrom && (answer.validUntil === null || now < answer.validUntil);
  }

  async getStorefront(businessMetaKey: string, menuMetaKey: string): Promise<StorefrontAnswer> {
    if (!this.cache.enabled) return this.build(businessMetaKey, menuMetaKey);
    const key = JSON.stringify([businessMetaKey, menuMetaKey]);
    const hit = this.cache.lookup(key);
    if (hit && this.stillTrue(hit.value)) {
      if (hit.refreshDue) this.refresh(key, businessMetaKey, menuMetaKey);
      return hit.value;
    }
    return this.shared(key, businessMetaKey, menuMetaKey);
  }

  private shared(key: string, businessMetaKey: string, menuMetaKey: string) {
    const mark = this.cache.mark();
    const running = this.building.get(key);
    // A build that began before a write may have read the old records: never join it (D17).
    if (running && running.mark === mark) return running.answer;
    const answer = this.build(businessMetaKey, menuMetaKey, { key, mark });
    this.building.set(key, { mark, answer });
    const forget = () => {
      if (this.building.get(key)?.answer === answer) this.building.delete(key);
    };
    answer.then(forget, forget);
    return answer;
  }

  private refresh(key: string, businessMetaKey: string, menuMetaKey: string): void {
    this.shared(key, businessMetaKey, menuMetaKey).catch((error: unknown) => {
      // A storefront that became 404 was dropped from the cache by the write that did it.
      if (!(error instanceof ApiError)) {
        this.logger.warn(`Refreshing storefront ${key} failed: ${String(error)}`);
      }
    });
  }

  private async build(
    businessMetaKey: string,
    menuMetaKey: string,
    store?: { key: string; mark: number },
  ): Promise<StorefrontAnswer> {
    const menuType = this.types.of('business_menu');
    const business = await this.repository.findPublicTopByMetaKey(
      this.types.of('business'),
      businessMetaKey,
    );
    if (!business) throw ApiError.notFound('No public business has this meta_key.');
    const menu = await this.repository.findPublicChildByMetaKey(
      menuType,
      business.uuid,
      menuMetaKey,
    );
    if (!menu) throw ApiError.notFound('This business has no public menu with this meta_key.');
    // One more than a list page holds tells whether the menu was cut.
    const items = await this.repository.listPublicChildrenBySortPosition(
      this.types.of('business_menu_item'),
      menu.uuid,
      MAX_PER_PAGE + 1,
    );

    const validFrom = this.clock.nowMs();
    const open = this.openStateOf(business);
    const data: StorefrontResponseDto = {
      business: toEntityResponse(business),
      menu: toEntityResponse(menu),
      items: items.slice(0, MAX_PER_PAGE).map(toEntityResponse),
      items_truncated: items.length > MAX_PER_PAGE,
      open_now: open.open,
      next_change_at: open.nextChangeText,
    };
    const body = Buffer.from(JSON.stringify(successBody(data, STOREFRONT_MESSAGE)));
    const answer: StorefrontAnswer = {
      body,
      etag: weakEtag(body),
      validFrom,
      validUntil: open.nextChangeAt ? open.nextChangeAt.getTime() : null,
    };
    if (store) {
      // On the thread pool, so the event loop keeps serving while it runs.
      answer.gzipped = await gzipAsync(body);
      this.cache.set(store.key, answer, [business.uuid, menu.uuid], store.mark);
    }
    return answer;
  }
}

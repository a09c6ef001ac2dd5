import { Injectable, Logger } from '@nestjs/common';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { Transaction } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import { StorefrontResponseDto, toPublicEntityResponse } from './dto/entity-response.dto';
import { MAX_PER_PAGE } from './dto/list-entities-query.dto';
import { isoInZone, OpenState, openState, readOpeningHours } from './domain/opening-hours';
import { requestedTimeProblem, SlotRules, slotsOfDay, slotZone } from './domain/requested-time';
import { EntityRecord } from './entity-record.entity';
import { Availability, availabilityAt, busyMinutesAt } from './domain/availability';
import { StorefrontRepository } from './storefront.repository';
import { EntityTypeRegistry } from './entity-types';
import { StorefrontCache } from './storefront-cache';
import { HeldAnswers, PlainBodies } from './storefront-held';
import {
  AnswerTimeFields,
  answerBytes,
  answerEtag,
  answerOf,
  makeDocument,
  StorefrontAnswer,
  StorefrontAnswerInputs,
  weakEtag,
} from './storefront-document';
import {
  DocumentForms,
  StorefrontDocumentRepository,
  StoredDocument,
} from './storefront-document.repository';
import { matchesEtag } from './list-etag';
import { StorefrontStockSource, withStock } from './storefront-stock';
import { readMenuLanguages } from './domain/menu-labels';
import { resolveLanguage, StorefrontView, viewOfData } from './storefront-views';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export type { StorefrontAnswer } from './storefront-document';

export const STOREFRONT_MESSAGE = 'Storefront found';

/** What the client asked for: the gzip form, and the ETag it already holds, if any. */
export interface StorefrontRequest {
  gzip: boolean;
  ifNoneMatch?: string;
}

/** 304 when the client's ETag is the current one; otherwise the answer. */
export type StorefrontReply =
  { notModified: true; etag: string; language?: string } | StorefrontAnswer;

/**
 * Stored documents are read in their gzip form only (a tenth of the bytes,
 * and no large string to decode); the plain form, when a client wants it, is
 * inflated on the thread pool.
 */
const GZIP_ONLY: DocumentForms = { plain: false, gzip: true };

/** Whether a business takes orders now, and when that changes, as the storefront and placement tell it. */
export interface BusinessOpenState extends OpenState {
  /** `nextChangeAt` as ISO 8601 with the business's own offset; null when not known. */
  nextChangeText: string | null;
}

/**
 * The storefront: business, menu and sorted items by the two meta_keys of
 * the storefront URL.
 *
 * Three layers:
 * - the in-process cache (StorefrontCache), which every entity write drops
 *   at once in this process and, through NOTIFY, within milliseconds in
 *   every other one; past it (or with it turned off), the database is asked
 *   for the current ETag only, and the answer this process last made is sent
 *   again when its ETag is still that one (HeldAnswers);
 * - the finished document per storefront in PostgreSQL, one indexed read
 *   for any storefront on any process, marked stale inside the transaction
 *   of every write to one of its records;
 * - the build from the records, run by the first reader of a stale or
 *   missing document (readers arriving meanwhile wait for it and read the
 *   stored document again), which stores the document only if no write came
 *   after its snapshot. A burst of edits costs one build, at the next read.
 * The last two are never older than a committed write once it has answered.
 *
 * Fields that depend on the time of the request are added to each answer by
 * answerTimeFields, never stored in the document.
 */
// R17: storefront in one call.
@Injectable()
export class StorefrontService {
  private readonly logger = new Logger('Storefront');
  /** Builds under way in this process by cache key. */
  private readonly building = new Map<string, Promise<StoredDocument>>();
  /** Cache keys being refreshed in the background. */
  private readonly refreshing = new Set<string>();
  /** The last answer of each storefront, used once the database confirms its ETag. */
  private readonly held = new HeldAnswers();
  /** Answers being made in this process by cache key. */
  private readonly answering = new Map<string, Promise<StorefrontAnswer>>();
  private readonly plainBodies = new PlainBodies();
  /** The last view (language, exclusions) made of each storefront, by view key (see getStorefrontView). */
  private readonly heldViews = new HeldAnswers();
  /** Views being made in this process, by their ETag. */
  private readonly makingViews = new Map<string, Promise<StorefrontAnswer>>();
  /** Items' stock, when the stock module has said how to read it. */
  private stock: StorefrontStockSource | null = null;

  constructor(
    private readonly types: EntityTypeRegistry,
    private readonly repository: StorefrontRepository,
    private readonly documents: StorefrontDocumentRepository,
    private readonly cache: StorefrontCache<StorefrontAnswer>,
    private readonly clock: Clock,
  ) {}

  /** The stock module tells the storefront how to read items' stock (see StorefrontStockSource). */
  useStock(source: StorefrontStockSource): void {
    this.stock = source;
  }

  /**
   * Call in the transaction of a change of stock: marks the stored
   * storefronts of these menus stale in that transaction (a write held for
   * its commit, so a build that read the counts before the change can never
   * store itself as fresh), and once it has committed drops their cached
   * answers here and in every other process. A read that starts after the
   * change has answered never shows what remained before it.
   */
  async stockChanged(tx: Transaction, menuUuids: ReadonlyArray<string | null>): Promise<void> {
    const menus = [...new Set(menuUuids.filter((uuid): uuid is string => !!uuid))];
    if (menus.length === 0) return;
    await this.documents.markMenusStale(tx.manager, menus);
    tx.afterCommit(() => this.cache.invalidate(menus));
  }

  /** Whether a stored document's stock is of a day that has ended. */
  private stockEnded(inputs: StorefrontAnswerInputs | undefined): boolean {
    const until = inputs?.stock_until;
    return typeof until === 'number' && until <= this.clock.nowMs();
  }

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

  /**
   * The kitchen's switch of a business at the service clock's now: open,
   * busy (with its extra minutes) or paused, `until` past reading as open.
   */
  availabilityOf(business: Pick<EntityRecord, 'extraData'>): Availability {
    return availabilityAt(business.extraData, this.clock.now());
  }

  /** The slot rules with a busy kitchen's extra minutes added to the prep time (R94). */
  private withBusyMinutes(business: Pick<EntityRecord, 'extraData'>, rules: SlotRules): SlotRules {
    const extra = busyMinutesAt(business.extraData, this.clock.now());
    return extra ? { ...rules, prepTimeMinutes: rules.prepTimeMinutes + extra } : rules;
  }

  /**
   * Why a business cannot take an order for `requested` now, or null: the
   * slot grid, prep time and window of `rules` and its opening hours, in its
   * own zone (UTC without hours). The switch for orders now does not apply.
   */
  requestedTimeProblem(
    business: Pick<EntityRecord, 'extraData'>,
    rules: SlotRules,
    requested: Date,
  ): string | null {
    const hours = readOpeningHours(business.extraData.opening_hours);
    return requestedTimeProblem(
      requested,
      this.clock.now(),
      hours,
      this.withBusyMinutes(business, rules),
    );
  }

  /**
   * The slots of a local day (`YYYY-MM-DD`) of a business that can still be
   * ordered, as ISO 8601 with the business's offset; undefined for a
   * malformed date.
   */
  slotsOfDay(
    business: Pick<EntityRecord, 'extraData'>,
    rules: SlotRules,
    date: string,
  ): Array<{ start: Date; startText: string; endText: string }> | undefined {
    const hours = readOpeningHours(business.extraData.opening_hours);
    const zone = slotZone(hours);
    const busyRules = this.withBusyMinutes(business, rules);
    return slotsOfDay(date, this.clock.now(), hours, busyRules)?.map((slot) => ({
      start: slot.start,
      startText: isoInZone(slot.start, zone),
      endText: isoInZone(slot.end, zone),
    }));
  }

  /** A public menu of a public business by the storefront's meta_keys; 404 otherwise. */
  async publicMenu(
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<{ business: EntityRecord; menu: EntityRecord }> {
    const business = await this.repository.findPublicTopByMetaKey(
      this.types.of('business'),
      businessMetaKey,
    );
    const menu = business
      ? await this.repository.findPublicChildByMetaKey(
          this.types.of('business_menu'),
          business.uuid,
          menuMetaKey,
        )
      : null;
    if (!business || !menu) {
      throw ApiError.notFound('This business has no public menu with this meta_key.');
    }
    return { business, menu };
  }

  /**
   * The storefront in a language and without some allergens (R118, R119).
   * A request that names neither (no `lang`, no Accept-Language, nothing
   * excluded) is the plain answer, with its 304s, exactly as before. Any
   * other first reads the plain answer (the menu's languages are in it);
   * when the language it resolves to is the default and nothing is left
   * out, that is the answer; otherwise the answer is made of it, kept in
   * the same cache (within the same byte budget) under a key naming the
   * language and the exclusions, and used again only while the plain answer
   * it was made of is the current one. Its ETag is that of the plain answer
   * with the language and the exclusions.
   */
  async getStorefrontView(
    businessMetaKey: string,
    menuMetaKey: string,
    request: StorefrontRequest,
    view: StorefrontView,
  ): Promise<StorefrontReply> {
    const plain =
      view.lang === undefined && !view.acceptLanguage && view.excludeAllergens.length === 0;
    if (plain) return this.getStorefront(businessMetaKey, menuMetaKey, request);
    const mark = this.cache.mark();
    const base = await this.getStorefront(businessMetaKey, menuMetaKey, { gzip: true });
    if ('notModified' in base) throw new Error('A storefront read without an ETag answered 304');
    const language = base.languages ? resolveLanguage(base.languages, view) : undefined;
    const nothingLeftOut = view.excludeAllergens.length === 0;
    if (nothingLeftOut && language === base.languages?.default) {
      if (matchesEtag(request.ifNoneMatch, base.etag)) {
        return { notModified: true, etag: base.etag, language };
      }
      if (!request.gzip)
        await this.withPlainBody(JSON.stringify([businessMetaKey, menuMetaKey]), base);
      return base;
    }
    const exclusions = nothingLeftOut ? [] : [...view.excludeAllergens, view.strict];
    const viewKey = JSON.stringify([language ?? null, exclusions]);
    const etag = weakEtag(`${base.etag}${viewKey}`);
    if (matchesEtag(request.ifNoneMatch, etag)) return { notModified: true, etag, language };
    const key = JSON.stringify([businessMetaKey, menuMetaKey, viewKey]);
    const hit = this.cache.enabled ? this.cache.lookup(key) : undefined;
    if (hit && hit.value.viewOf === base.etag) return hit.value;
    // The view's ETag names the plain answer just read: a view made of that
    // same answer is current, whatever the cache's settings, and readers who
    // ask together share one making of it (a view of a large menu is parsed,
    // translated and compressed, which no reader should do alongside others).
    const held = this.heldViews.get(key, etag);
    if (held) return held.answer;
    const making = this.makingViews.get(etag);
    if (making) return making;
    const made = this.makeView(base, language, view, etag).then(({ answer, refs }) => {
      const bytes = answerBytes(answer);
      this.cache.set(key, answer, refs, mark, answer.validUntilMs, bytes);
      this.heldViews.hold(key, answer, bytes);
      return answer;
    });
    this.makingViews.set(etag, made);
    const forget = () => {
      if (this.makingViews.get(etag) === made) this.makingViews.delete(etag);
    };
    made.then(forget, forget);
    return made;
  }

  /** The view of a plain answer in a language and without some allergens. */
  private async makeView(
    base: StorefrontAnswer,
    language: string | undefined,
    view: StorefrontView,
    etag: string,
  ): Promise<{ answer: StorefrontAnswer; refs: string[] }> {
    const plainBody = base.body ?? (await gunzipAsync(base.gzipped as Buffer));
    const envelope = JSON.parse(plainBody.toString('utf8')) as Record<string, unknown>;
    const data = viewOfData(envelope.data as Record<string, unknown>, language, view);
    const body = Buffer.from(JSON.stringify({ ...envelope, data }));
    const answer: StorefrontAnswer = {
      body,
      gzipped: await gzipAsync(body),
      etag,
      validUntilMs: base.validUntilMs,
      languages: base.languages,
      language,
      viewOf: base.etag,
    };
    const refs = [data.business, data.menu].map((record) => (record as { uuid: string }).uuid);
    return { answer, refs };
  }

  async getStorefront(
    businessMetaKey: string,
    menuMetaKey: string,
    request: StorefrontRequest,
  ): Promise<StorefrontReply> {
    const key = JSON.stringify([businessMetaKey, menuMetaKey]);
    if (this.cache.enabled) {
      const hit = this.cache.lookup(key);
      if (hit) {
        if (hit.refreshDue) this.refresh(key, businessMetaKey, menuMetaKey);
        if (matchesEtag(request.ifNoneMatch, hit.value.etag)) {
          return { notModified: true, etag: hit.value.etag, language: hit.value.language };
        }
        if (!request.gzip) await this.withPlainBody(key, hit.value);
        return hit.value;
      }
    }
    // The current ETag first, without the document's bytes, when it can save
    // them: a client that holds the answer gets 304, and an answer this process
    // holds is sent as it is. Otherwise the document is read at once.
    if (request.ifNoneMatch || this.held.has(key)) {
      const current = await this.currentOrHeld(key, businessMetaKey, menuMetaKey, request);
      if (current) return current;
    }
    const running = this.answering.get(key);
    if (running) {
      // Readers that miss together wait for one answer instead of each making
      // (and inflating) their own, then ask the database again: the running
      // answer may predate a write this reader must see.
      await running.catch(() => undefined);
      const after = await this.currentOrHeld(key, businessMetaKey, menuMetaKey, request);
      if (after) return after;
    }
    const answer = await this.sharedAnswer(key, businessMetaKey, menuMetaKey);
    if (!request.gzip) await this.withPlainBody(key, answer);
    return answer;
  }

  /**
   * 304 for the current ETag, or the held answer when it is still the
   * current one (kept in the cache again: the database has just confirmed it).
   */
  private async currentOrHeld(
    key: string,
    businessMetaKey: string,
    menuMetaKey: string,
    request: StorefrontRequest,
  ): Promise<StorefrontReply | undefined> {
    const mark = this.cache.mark();
    const stored = await this.documents.readEtag(businessMetaKey, menuMetaKey);
    if (!stored || this.stockEnded(stored.answerInputs)) return undefined;
    const etag = answerEtag(stored.etag, this.answerTimeFields(stored.answerInputs));
    if (matchesEtag(request.ifNoneMatch, etag)) {
      // A 304 varies as its 200 does: it names the (default) language too.
      const language = readMenuLanguages(stored.answerInputs.languages)?.default;
      return { notModified: true, etag, language };
    }
    const held = this.held.get(key, etag);
    if (!held) return undefined;
    const refs = [stored.businessUuid, stored.menuUuid];
    this.cache.set(key, held.answer, refs, mark, held.answer.validUntilMs, held.bytes);
    if (!request.gzip) await this.withPlainBody(key, held.answer);
    return held.answer;
  }

  private sharedAnswer(
    key: string,
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<StorefrontAnswer> {
    const answer = this.answer(key, businessMetaKey, menuMetaKey);
    this.answering.set(key, answer);
    const forget = () => {
      if (this.answering.get(key) === answer) this.answering.delete(key);
    };
    answer.then(forget, forget);
    return answer;
  }

  /**
   * Adds the plain bytes to an answer that has only its gzip form (once:
   * readers asking at the same time share one inflation), and counts them
   * where the answer is kept.
   */
  private async withPlainBody(key: string, answer: StorefrontAnswer): Promise<void> {
    if (!(await this.plainBodies.add(answer))) return;
    const bytes = answerBytes(answer);
    this.cache.recount(key, answer, bytes);
    this.held.recount(key, answer, bytes);
  }

  /** Reads (or builds) the document, adds the answer-time fields, and keeps the answer in the cache. */
  private async answer(
    key: string,
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<StorefrontAnswer> {
    const mark = this.cache.mark();
    const stored = await this.load(key, businessMetaKey, menuMetaKey, GZIP_ONLY);
    const answer = answerOf(stored.document, this.answerTimeFields(stored.document.answerInputs));
    const languages = readMenuLanguages(stored.document.answerInputs.languages);
    if (languages) Object.assign(answer, { languages, language: languages.default });
    // What it holds now; a plain form inflated later is counted then.
    const bytes = answerBytes(answer);
    const refs = [stored.businessUuid, stored.menuUuid];
    this.cache.set(key, answer, refs, mark, answer.validUntilMs, bytes);
    this.held.hold(key, answer, bytes);
    return answer;
  }

  /**
   * The one place where fields computed at answer time are added to the
   * storefront's `data`, from the inputs stored with the document and the
   * service clock; `validUntilMs` is when they next change (an answer is
   * never kept past it): `open_now` and `next_change_at`, from the
   * business's opening hours and accepting_orders kept with the document, so
   * a cached answer never says open once the business has closed; and
   * `availability` and `estimated_wait_minutes`, from the kitchen's switch
   * and the menu's prep time, never kept past the switch's `until`.
   */
  private answerTimeFields(inputs: StorefrontAnswerInputs): AnswerTimeFields {
    const open = this.openStateOf({ extraData: { ...inputs } });
    // A day's stock ends at the business's midnight.
    const times = [open.nextChangeAt?.getTime(), inputs.stock_until].filter(
      (ms): ms is number => typeof ms === 'number',
    );
    const fields: Record<string, unknown> = {
      open_now: open.open,
      next_change_at: open.nextChangeText,
    };
    // R93: the kitchen's switch and the wait it means, never kept past its `until`.
    const availability = this.availabilityOf({ extraData: { ...inputs } });
    const prep = Number(inputs.prep_time_minutes);
    fields.availability = availability;
    fields.estimated_wait_minutes =
      (Number.isInteger(prep) && prep > 0 ? prep : 0) + (availability.extra_prep_minutes ?? 0);
    if (availability.until) times.push(new Date(availability.until).getTime());
    return { fields, validUntilMs: times.length ? Math.min(...times) : null };
  }

  /**
   * Renews a cache entry in the background: when the database confirms the
   * held answer is still the current one, that answer is kept again (no byte
   * of the document is read); otherwise a new answer is made.
   */
  private refresh(key: string, businessMetaKey: string, menuMetaKey: string): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    this.currentOrHeld(key, businessMetaKey, menuMetaKey, { gzip: true })
      .then((held) => held ?? this.answer(key, businessMetaKey, menuMetaKey))
      .catch((error: unknown) => {
        // A storefront that became 404 was dropped from the cache by the write that did it.
        if (!(error instanceof ApiError)) {
          this.logger.warn(`Refreshing storefront ${key} failed: ${String(error)}`);
        }
      })
      .finally(() => this.refreshing.delete(key));
  }

  /** The fresh stored document, else a build (404 when the meta_keys name no public storefront). */
  private async load(
    key: string,
    businessMetaKey: string,
    menuMetaKey: string,
    forms: DocumentForms,
  ): Promise<StoredDocument> {
    const stored = await this.documents.readFresh(businessMetaKey, menuMetaKey, forms);
    if (stored && !this.stockEnded(stored.document.answerInputs)) return stored;
    const running = this.building.get(key);
    if (running) {
      // Its snapshot may predate a write this reader must see: wait, then read what it stored.
      await running.catch(() => undefined);
      const after = await this.documents.readFresh(businessMetaKey, menuMetaKey, forms);
      if (after && !this.stockEnded(after.document.answerInputs)) return after;
    }
    return this.sharedBuild(key, businessMetaKey, menuMetaKey);
  }

  private sharedBuild(
    key: string,
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<StoredDocument> {
    const build = this.build(businessMetaKey, menuMetaKey);
    this.building.set(key, build);
    const forget = () => {
      if (this.building.get(key) === build) this.building.delete(key);
    };
    build.then(forget, forget);
    return build;
  }

  /**
   * Builds the document from the records, in at most three indexed queries
   * in one snapshot, and stores it unless a write came after that snapshot.
   */
  async build(businessMetaKey: string, menuMetaKey: string): Promise<StoredDocument> {
    const { version, result } = await this.documents.inSnapshot(
      businessMetaKey,
      menuMetaKey,
      (manager) => this.readRecords(businessMetaKey, menuMetaKey, manager),
    );
    const { business, menu, items, stock } = result;
    // open_now, next_change_at, availability and the wait are added to each answer, never stored. The
    // document is public and stored as built, so private settings leave here.
    const data: Omit<
      StorefrontResponseDto,
      'open_now' | 'next_change_at' | 'availability' | 'estimated_wait_minutes'
    > = {
      business: toPublicEntityResponse(business),
      menu: toPublicEntityResponse(menu),
      items: items
        .slice(0, MAX_PER_PAGE)
        .map((item) => withStock(toPublicEntityResponse(item), stock?.remaining.get(item.uuid))),
      items_truncated: items.length > MAX_PER_PAGE,
    };
    const inputs: StorefrontAnswerInputs = {};
    const extra = business.extraData;
    if ('opening_hours' in extra) inputs.opening_hours = extra.opening_hours;
    if ('accepting_orders' in extra) inputs.accepting_orders = extra.accepting_orders;
    if ('availability' in extra) inputs.availability = extra.availability;
    const fulfilment = menu.extraData.fulfilment as Record<string, unknown> | undefined;
    if (fulfilment && typeof fulfilment === 'object' && 'prep_time_minutes' in fulfilment) {
      inputs.prep_time_minutes = fulfilment.prep_time_minutes;
    }
    if (menu.extraData.languages) inputs.languages = menu.extraData.languages;
    if (stock?.untilMs) inputs.stock_until = stock.untilMs;
    const document = await makeDocument(data, STOREFRONT_MESSAGE, inputs);
    const stored = { document, businessUuid: business.uuid, menuUuid: menu.uuid };
    await this.documents.store(businessMetaKey, menuMetaKey, version, stored);
    return stored;
  }

  private async readRecords(businessMetaKey: string, menuMetaKey: string, manager: EntityManager) {
    const business = await this.repository.findPublicTopByMetaKey(
      this.types.of('business'),
      businessMetaKey,
      manager,
    );
    if (!business) throw ApiError.notFound('No public business has this meta_key.');
    const menu = await this.repository.findPublicChildByMetaKey(
      this.types.of('business_menu'),
      business.uuid,
      menuMetaKey,
      manager,
    );
    if (!menu) throw ApiError.notFound('This business has no public menu with this meta_key.');
    // One more than a list page holds tells whether the menu was cut.
    const items = await this.repository.listPublicChildrenBySortPosition(
      this.types.of('business_menu_item'),
      menu.uuid,
      MAX_PER_PAGE + 1,
      manager,
    );
    // In the same snapshot: the document is exactly as of its version, stock included.
    const stock = this.stock
      ? await this.stock.read(business, items.slice(0, MAX_PER_PAGE), manager)
      : null;
    return { business, menu, items, stock };
  }
}

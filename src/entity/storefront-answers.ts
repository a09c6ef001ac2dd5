import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { ApiError } from '../http/api-error';
import { answerTimeFields } from './business-time';
import { matchesEtag } from './list-etag';
import { readMenuLanguages } from './domain/menu-labels';
import { StorefrontBuilder } from './storefront-builder';
import { StorefrontCache } from './storefront-cache';
import {
  answerBytes,
  answerEtag,
  answerOf,
  StorefrontAnswer,
  StorefrontAnswerInputs,
} from './storefront-document';
import {
  DocumentForms,
  StorefrontDocumentRepository,
  StoredDocument,
} from './storefront-document.repository';
import { HeldAnswers, PlainBodies } from './storefront-held';

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

/**
 * The storefront's plain answer: business, menu and sorted items by the two
 * meta_keys of the storefront URL, in three layers:
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
@Injectable()
export class StorefrontAnswers {
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

  constructor(
    private readonly documents: StorefrontDocumentRepository,
    private readonly cache: StorefrontCache<StorefrontAnswer>,
    private readonly builder: StorefrontBuilder,
    private readonly clock: Clock,
  ) {}

  /** Whether a stored document's stock is of a day that has ended. */
  private stockEnded(inputs: StorefrontAnswerInputs | undefined): boolean {
    const until = inputs?.stock_until;
    return typeof until === 'number' && until <= this.clock.nowMs();
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
    const etag = answerEtag(stored.etag, answerTimeFields(stored.answerInputs, this.clock));
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
  async withPlainBody(key: string, answer: StorefrontAnswer): Promise<void> {
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
    const answer = answerOf(
      stored.document,
      answerTimeFields(stored.document.answerInputs, this.clock),
    );
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
    const build = this.builder.build(businessMetaKey, menuMetaKey);
    this.building.set(key, build);
    const forget = () => {
      if (this.building.get(key) === build) this.building.delete(key);
    };
    build.then(forget, forget);
    return build;
  }
}

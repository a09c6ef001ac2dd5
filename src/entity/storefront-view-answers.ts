import { Injectable } from '@nestjs/common';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { matchesEtag } from './list-etag';
import { StorefrontAnswers, StorefrontReply, StorefrontRequest } from './storefront-answers';
import { StorefrontCache } from './storefront-cache';
import { answerBytes, StorefrontAnswer, weakEtag } from './storefront-document';
import { HeldAnswers } from './storefront-held';
import { resolveLanguage, StorefrontView, viewOfData } from './storefront-views';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * The storefront in the reader's language and without the allergens they
 * leave out, made of the plain answer (StorefrontAnswers) and kept beside it.
 */
@Injectable()
export class StorefrontViewAnswers {
  /** The last view (language, exclusions) made of each storefront, by view key (see getStorefrontView). */
  private readonly heldViews = new HeldAnswers();
  /** Views being made in this process, by their ETag. */
  private readonly makingViews = new Map<string, Promise<StorefrontAnswer>>();

  constructor(
    private readonly answers: StorefrontAnswers,
    private readonly cache: StorefrontCache<StorefrontAnswer>,
  ) {}

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
    if (plain) return this.answers.getStorefront(businessMetaKey, menuMetaKey, request);
    const mark = this.cache.mark();
    const base = await this.answers.getStorefront(businessMetaKey, menuMetaKey, { gzip: true });
    if ('notModified' in base) throw new Error('A storefront read without an ETag answered 304');
    const language = base.languages ? resolveLanguage(base.languages, view) : undefined;
    const nothingLeftOut = view.excludeAllergens.length === 0;
    if (nothingLeftOut && language === base.languages?.default) {
      if (matchesEtag(request.ifNoneMatch, base.etag)) {
        return { notModified: true, etag: base.etag, language };
      }
      if (!request.gzip)
        await this.answers.withPlainBody(JSON.stringify([businessMetaKey, menuMetaKey]), base);
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
}

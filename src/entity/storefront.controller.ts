import { Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { ApiKeyOnly } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { StorefrontResponseDto } from './dto/entity-response.dto';
import { StorefrontReply, StorefrontService } from './storefront.service';
import { StorefrontView } from './storefront-views';
import { ApiError } from '../http/api-error';
import { ALLERGENS, Allergen, isAllergen } from './domain/menu-labels';

/**
 * The view a request asks for: `?lang`, Accept-Language (parsed by Express's
 * negotiator, q-values honoured), `?exclude_allergens` (400 naming the
 * parameter for a word not in the list) and `?strict`.
 */
function viewOf(req: Request, lang: unknown, exclude: unknown, strict: unknown): StorefrontView {
  const words =
    typeof exclude === 'string' && exclude.trim() !== ''
      ? exclude.split(',').map((word) => word.trim())
      : [];
  const unknown = words.filter((word) => !isAllergen(word));
  if (exclude !== undefined && typeof exclude !== 'string') unknown.push(String(exclude));
  if (unknown.length > 0) {
    throw ApiError.validation([
      {
        field: 'exclude_allergens',
        message: `exclude_allergens may only list ${ALLERGENS.join(', ')}; not ${unknown.join(', ')}.`,
      },
    ]);
  }
  if (strict !== undefined && strict !== 'true' && strict !== 'false') {
    throw ApiError.validation([{ field: 'strict', message: 'strict must be true or false.' }]);
  }
  const header = req.headers['accept-language'];
  return {
    lang: typeof lang === 'string' && lang !== '' ? lang : undefined,
    acceptLanguage: header
      ? (available) => (available.length ? req.acceptsLanguages(available) : false)
      : undefined,
    excludeAllergens: [...new Set(words)] as Allergen[],
    strict: strict === 'true',
  };
}

/**
 * The answer is already the enveloped JSON (see StorefrontAnswer), sent
 * gzipped to a client that accepts it. The ETag is weak, so both forms may
 * share it; a matching If-None-Match is answered 304 with no body, and HEAD
 * leaves the body out.
 */
function sendReply(req: Request, res: Response, reply: StorefrontReply): void {
  res.vary('Accept-Encoding').set('ETag', reply.etag);
  // R118: a menu with languages answers in one of them, and says which.
  if (reply.language) res.vary('Accept-Language').set('Content-Language', reply.language);
  if ('notModified' in reply) {
    res.status(304).end();
    return;
  }
  res.status(200).set('Content-Type', 'application/json; charset=utf-8');
  if (reply.gzipped && (wantsGzip(req) || !reply.body)) {
    res.set('Content-Encoding', 'gzip').send(reply.gzipped);
  } else {
    res.send(reply.body);
  }
}

function wantsGzip(req: Request): boolean {
  return req.acceptsEncodings('gzip', 'identity') === 'gzip';
}

@ApiTags('storefront')
@SpaceController('core', 'storefront')
export class StorefrontController {
  constructor(private readonly storefront: StorefrontService) {}

  /**
   * Read a storefront in one call
   *
   * @remarks The public business, its public menu and the menu's public items (ordered by
   * `extra_data.sort_position`, then `created_at`) for the storefront URL
   * `<front>/app/<business_meta_key>/menu/<menu_meta_key>`; meta_keys match ignoring case.
   * `open_now` and `next_change_at` say whether the business takes orders at this moment and
   * when that changes. A write to any of the records shows in the next read, on every replica
   * of the service. Sent gzipped when the client accepts it, with an ETag; a request whose
   * If-None-Match names it is answered 304 with no body. 404 when the business or menu is not
   * public.
   *
   * A menu with `languages` answers in the language of `lang`, else of Accept-Language, among
   * its available ones (`fr-CI` falls back to `fr`, then to the default), field by field: a
   * missing translation gives the default text. It says the language in `Content-Language` and
   * varies on Accept-Language. `exclude_allergens` leaves out the items that contain one of the
   * listed allergens (with `strict=true`, also those that may contain one) and says how many in
   * `excluded_count`.
   */
  @Get(':business_meta_key/menu/:menu_meta_key')
  @ApiKeyOnly()
  @RawResponse()
  @ApiEnvelope(StorefrontResponseDto)
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current ETag' })
  @ApiQuery({
    name: 'lang',
    required: false,
    description: 'The language to answer in (BCP 47); overrides Accept-Language.',
    example: 'fr',
  })
  @ApiQuery({
    name: 'exclude_allergens',
    required: false,
    description: `Comma-separated allergens whose items are left out: ${ALLERGENS.join(', ')}.`,
    example: 'milk,peanuts',
  })
  @ApiQuery({
    name: 'strict',
    required: false,
    description: 'With true, `may_contain` counts for `exclude_allergens` too.',
    schema: { type: 'boolean', default: false },
  })
  @ApiErrors(400, 404)
  getStorefront(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query('lang') lang: unknown,
    @Query('exclude_allergens') excludeAllergens: unknown,
    @Query('strict') strict: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ifNoneMatch = req.headers['if-none-match'];
    const view = viewOf(req, lang, excludeAllergens, strict);
    return this.storefront
      .getStorefrontView(businessMetaKey, menuMetaKey, { gzip: wantsGzip(req), ifNoneMatch }, view)
      .then((reply) => sendReply(req, res, reply));
  }
}

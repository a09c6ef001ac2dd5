import { Get, Param, Req, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { ApiKeyOnly } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { RawResponse } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { StorefrontResponseDto } from './dto/entity-response.dto';
import { StorefrontReply, StorefrontService } from './storefront.service';

/**
 * The answer is already the enveloped JSON (see StorefrontAnswer), sent
 * gzipped to a client that accepts it. The ETag is weak, so both forms may
 * share it; a matching If-None-Match is answered 304 with no body, and HEAD
 * leaves the body out.
 */
function sendReply(req: Request, res: Response, reply: StorefrontReply): void {
  res.vary('Accept-Encoding').set('ETag', reply.etag);
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
   */
  @Get(':business_meta_key/menu/:menu_meta_key')
  @ApiKeyOnly()
  @RawResponse()
  @ApiEnvelope(StorefrontResponseDto)
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current ETag' })
  @ApiErrors(404)
  getStorefront(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const ifNoneMatch = req.headers['if-none-match'];
    return this.storefront
      .getStorefront(businessMetaKey, menuMetaKey, { gzip: wantsGzip(req), ifNoneMatch })
      .then((reply) => sendReply(req, res, reply));
  }
}

import { Get, Param, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { ApiKeyOnly } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { RawResponse } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { StorefrontResponseDto } from './dto/entity-response.dto';
import { StorefrontAnswer, StorefrontService } from './storefront.service';

/**
 * The answer is already the enveloped JSON (see StorefrontAnswer), sent
 * gzipped to a client that accepts it when a gzip form is at hand. The ETag
 * is weak, so both forms may share it; Express still answers 304 to a
 * matching If-None-Match and leaves the body out of HEAD.
 */
function sendAnswer(req: Request, res: Response, answer: StorefrontAnswer): void {
  res
    .status(200)
    .vary('Accept-Encoding')
    .set({ 'Content-Type': 'application/json; charset=utf-8', ETag: answer.etag });
  if (answer.gzipped && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    res.set('Content-Encoding', 'gzip').send(answer.gzipped);
  } else {
    res.send(answer.body);
  }
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
   * `<front>/app/<business_meta_key>/menu/<menu_meta_key>`; meta_keys match ignoring case. The
   * answer may be a few seconds old, except that a write to any of its records shows at once. Sent
   * gzipped when the client accepts it, with an ETag (304 on a match). 404 when the business or
   * menu is not public.
   */
  @Get(':business_meta_key/menu/:menu_meta_key')
  @ApiKeyOnly()
  @RawResponse()
  @ApiEnvelope(StorefrontResponseDto)
  @ApiErrors(404)
  getStorefront(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.storefront
      .getStorefront(businessMetaKey, menuMetaKey)
      .then((answer) => sendAnswer(req, res, answer));
  }
}

import { Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Public } from '../auth/auth.decorator';
import { ApiErrors } from '../http/api-docs';
import { RawResponse } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import {
  StorefrontQrQueryDto,
  StorefrontQrSheetQueryDto,
  StorefrontQrTableQueryDto,
} from './dto/storefront-qr-query.dto';
import { StorefrontQr, StorefrontQrService } from './storefront-qr.service';

/**
 * A code changes only with FRONT_URL or a meta_key, so caches may keep it an
 * hour; the ETag lets them check cheaply after that (304 on a match).
 */
function sendQr(res: Response, qr: StorefrontQr): void {
  res
    .status(200)
    .set({
      'Content-Type': qr.contentType,
      'Cache-Control': 'public, max-age=3600',
      ETag: qr.etag,
    })
    .send(qr.body);
}

// R38: storefront qr code.
@ApiTags('storefront')
@SpaceController('core', 'storefront')
export class StorefrontQrController {
  constructor(private readonly qr: StorefrontQrService) {}

  @Get(':business_meta_key/menu/:menu_meta_key/qr.svg')
  @ApiOperation({
    summary: "A public menu's storefront QR code as SVG",
    description:
      'For table cards and flyers: a QR code of `{FRONT_URL}/app/<business_meta_key>/menu/<menu_meta_key>`, each segment percent-encoded as encodeURIComponent does, with the stored meta_keys (they match here ignoring case); with `table`, that address plus `?table=<table>` (percent-encoded), which a storefront uses to fill the on-premise location. No key: it holds only a public address. Cacheable for an hour, with an ETag. 400 for a malformed table; 404 when the menu is not public.',
  })
  @Public()
  @RawResponse()
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({ description: 'The QR code as SVG', schema: { type: 'string' } })
  @ApiErrors(400, 404)
  getStorefrontQrSvg(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query() query: StorefrontQrTableQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    return this.qr.svg(businessMetaKey, menuMetaKey, query.table).then((qr) => sendQr(res, qr));
  }

  @Get(':business_meta_key/menu/:menu_meta_key/qr.png')
  @ApiOperation({
    summary: "A public menu's storefront QR code as PNG",
    description:
      'The same code as the SVG (with the same optional `table`), as a PNG of `size` × `size` pixels (128–2048, default 512; anything else is 400). No key. Cacheable for an hour, with an ETag. 404 when the menu is not public.',
  })
  @Public()
  @RawResponse()
  @ApiProduces('image/png')
  @ApiOkResponse({
    description: 'The QR code as PNG',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiErrors(400, 404)
  getStorefrontQrPng(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query() query: StorefrontQrQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    return this.qr
      .png(businessMetaKey, menuMetaKey, query.size, query.table)
      .then((qr) => sendQr(res, qr));
  }

  @Get(':business_meta_key/menu/:menu_meta_key/qr-sheet.pdf')
  @ApiOperation({
    summary: "A printable A4 sheet of a public menu's table cards",
    description:
      "One card per table of `tables` (names and ranges such as `1-20,Patio 1,Patio 2`; a range `a-b` of whole numbers needs a ≤ b), four to a page: the business's title, the menu's title, `<label> <table>` and that table's QR code (as `qr.png?table=`). No key. At most 200 tables (422 beyond); 400 for a malformed list or label; 404 when the menu is not public. Cacheable for an hour, with an ETag.",
  })
  @Public()
  @RawResponse()
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The sheet as PDF',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiErrors(400, 404, 422)
  getStorefrontQrSheet(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query() query: StorefrontQrSheetQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    return this.qr
      .sheet(businessMetaKey, menuMetaKey, query.tables, query.label)
      .then((qr) => sendQr(res, qr));
  }
}

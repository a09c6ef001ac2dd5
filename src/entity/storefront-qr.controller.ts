import { Get, Headers, Ip, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Public } from '../auth/auth.decorator';
import { ApiErrors } from '../http/api-docs';
import { RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import {
  StorefrontQrQueryDto,
  StorefrontQrSheetQueryDto,
  StorefrontQrTableQueryDto,
} from './dto/storefront-qr-query.dto';
import { StorefrontQr, StorefrontQrService } from './storefront-qr.service';

/**
 * The same inputs give the same bytes, and the ETag is made of those inputs:
 * caches may keep an answer an hour and then check it cheaply (304 on a
 * match, with nothing rendered).
 */
function sendQr(res: Response, qr: StorefrontQr): void {
  res.set({ 'Cache-Control': 'public, max-age=3600', ETag: qr.etag });
  if (qr.notModified) {
    res.status(304).end();
    return;
  }
  res.status(200).set('Content-Type', qr.contentType).send(qr.body);
}

const COST =
  ' Limited per client IP (RATE_LIMIT_QR_PER_MINUTE for the images, 120 a minute by default; RATE_LIMIT_QR_SHEET_PER_MINUTE for the sheet, 30) with 429 and Retry-After beyond. The same inputs always give the same bytes and the same ETag; a request whose If-None-Match names it is answered 304. An address too long for a QR code is 422 naming `meta_key` (or `table`).';

// R38: storefront qr code.
@ApiTags('storefront')
@SpaceController('core', 'storefront')
export class StorefrontQrController {
  constructor(private readonly qr: StorefrontQrService) {}

  @Get(':business_meta_key/menu/:menu_meta_key/qr.svg')
  @ApiOperation({
    summary: "A public menu's storefront QR code as SVG",
    description:
      'For table cards and flyers: a QR code of `{FRONT_URL}/app/<business_meta_key>/menu/<menu_meta_key>`, each segment percent-encoded as encodeURIComponent does, with the stored meta_keys (they match here ignoring case); with `table`, that address plus `?table=<table>` (percent-encoded), which a storefront uses to fill the on-premise location. No key: it holds only a public address. Cacheable for an hour, with an ETag. 400 for a malformed table; 404 when the menu is not public.' +
      COST,
  })
  @Public()
  @RawResponse()
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({ description: 'The QR code as SVG', schema: { type: 'string' } })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current ETag' })
  @ApiErrors(400, 404, 422, 429)
  getStorefrontQrSvg(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query() query: StorefrontQrTableQueryDto,
    @Ip() ip: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    return this.qr
      .svg(businessMetaKey, menuMetaKey, query.table, { ip, ifNoneMatch })
      .then((qr) => sendQr(res, qr));
  }

  @Get(':business_meta_key/menu/:menu_meta_key/qr.png')
  @ApiOperation({
    summary: "A public menu's storefront QR code as PNG",
    description:
      'The same code as the SVG (with the same optional `table`), as a PNG of `size` × `size` pixels (128–2048, default 512; anything else is 400). No key. Cacheable for an hour, with an ETag. 404 when the menu is not public.' +
      COST,
  })
  @Public()
  @RawResponse()
  @ApiProduces('image/png')
  @ApiOkResponse({
    description: 'The QR code as PNG',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current ETag' })
  @ApiErrors(400, 404, 422, 429)
  getStorefrontQrPng(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query() query: StorefrontQrQueryDto,
    @Ip() ip: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    return this.qr
      .png(businessMetaKey, menuMetaKey, query.size, query.table, { ip, ifNoneMatch })
      .then((qr) => sendQr(res, qr));
  }

  @Get(':business_meta_key/menu/:menu_meta_key/qr-sheet.pdf')
  @ApiOperation({
    summary: "A printable A4 sheet of a public menu's table cards",
    description:
      "One card per table of `tables` (names and ranges such as `1-20,Patio 1,Patio 2`; a range `a-b` of whole numbers needs a ≤ b), four to a page: the business's title, the menu's title, `<label> <table>` and that table's QR code (as `qr.png?table=`). Titles print in Latin scripts (accents and dotted letters included, as in Yoruba or French) and in Arabic (shaped, right to left); other scripts print as empty boxes. No key. At most 200 tables (422 beyond); 400 for a malformed list or label; 404 when the menu is not public. Cacheable for an hour, with an ETag." +
      COST,
  })
  @Public()
  @RawResponse()
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The sheet as PDF',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current ETag' })
  @ApiErrors(400, 404, 422, 429)
  getStorefrontQrSheet(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query() query: StorefrontQrSheetQueryDto,
    @Ip() ip: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    return this.qr
      .sheet(businessMetaKey, menuMetaKey, query.tables, query.label, { ip, ifNoneMatch })
      .then((qr) => sendQr(res, qr));
  }
}

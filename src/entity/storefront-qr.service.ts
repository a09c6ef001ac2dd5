import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { QR_DEFAULT_SIZE } from './dto/storefront-qr-query.dto';
import { StorefrontService } from './storefront.service';
import { EntityRecord } from './entity-record.entity';
import { parseTableList } from './domain/table-list';
import { qrSheetPdf } from './storefront-qr-sheet';

export interface StorefrontQr {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** Quiet zone around the code, in modules: the four the QR standard asks for. */
const MARGIN = 4;

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
 */
@Injectable()
export class StorefrontQrService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly storefronts: StorefrontService,
  ) {}

  async storefrontUrl(
    businessMetaKey: string,
    menuMetaKey: string,
    table?: string,
  ): Promise<string> {
    const { url } = await this.storefront(businessMetaKey, menuMetaKey);
    return table === undefined ? url : tableUrl(url, table);
  }

  private async storefront(
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<{ url: string; business: EntityRecord; menu: EntityRecord }> {
    const { business, menu } = await this.storefronts.publicMenu(businessMetaKey, menuMetaKey);
    // Found by their meta_keys, so both have one; the check only tells the compiler.
    if (!business.metaKey || !menu.metaKey) {
      throw ApiError.notFound('This business has no public menu with this meta_key.');
    }
    // The stored meta_keys, so every spelling of the address prints the same code.
    const url = `${this.config.frontUrl}/app/${encodeURIComponent(business.metaKey)}/menu/${encodeURIComponent(menu.metaKey)}`;
    return { url, business, menu };
  }

  /**
   * The A4 sheet of table cards of a public menu, one card per table of
   * `tables` (see parseTableList: 400 for a malformed list, 422 beyond 200).
   */
  async sheet(
    businessMetaKey: string,
    menuMetaKey: string,
    tables: string | undefined,
    label = 'Table',
  ): Promise<StorefrontQr> {
    const list = parseTableList(tables);
    if (!list.ok) {
      const detail = [{ field: 'tables', message: list.message }];
      throw list.status === 400
        ? ApiError.validation(detail, list.message)
        : ApiError.unprocessable(list.message, detail);
    }
    const { url, business, menu } = await this.storefront(businessMetaKey, menuMetaKey);
    const cards = list.tables.map((table) => ({
      caption: `${label} ${table}`,
      modules: QRCode.create(tableUrl(url, table), { errorCorrectionLevel: 'M' }).modules,
    }));
    const body = await qrSheetPdf(
      business.titleName ?? business.metaKey ?? '',
      menu.titleName ?? menu.metaKey ?? '',
      cards,
    );
    return this.answer(body, 'application/pdf');
  }

  async svg(businessMetaKey: string, menuMetaKey: string, table?: string): Promise<StorefrontQr> {
    const url = await this.storefrontUrl(businessMetaKey, menuMetaKey, table);
    const text = await QRCode.toString(url, {
      type: 'svg',
      errorCorrectionLevel: 'M',
      margin: MARGIN,
    });
    return this.answer(Buffer.from(text), 'image/svg+xml; charset=utf-8');
  }

  async png(
    businessMetaKey: string,
    menuMetaKey: string,
    size = QR_DEFAULT_SIZE,
    table?: string,
  ): Promise<StorefrontQr> {
    const url = await this.storefrontUrl(businessMetaKey, menuMetaKey, table);
    const body = await QRCode.toBuffer(url, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: MARGIN,
      width: size,
    });
    return this.answer(body, 'image/png');
  }

  private answer(body: Buffer, contentType: string): StorefrontQr {
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
    return { body, contentType, etag: `"${hash}"` };
  }
}

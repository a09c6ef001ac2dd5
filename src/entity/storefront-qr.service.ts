import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { QR_DEFAULT_SIZE } from './dto/storefront-qr-query.dto';
import { StorefrontRepository } from './storefront.repository';
import { EntityTypeRegistry } from './entity-types';

export interface StorefrontQr {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** Quiet zone around the code, in modules: the four the QR standard asks for. */
const MARGIN = 4;

/**
 * Print-ready QR codes of a public menu's storefront address,
 * `{FRONT_URL}/app/<business_meta_key>/menu/<menu_meta_key>`, each segment
 * percent-encoded as encodeURIComponent does. They hold nothing but that
 * public address, so no key is needed; a menu that is not public has none.
 */
@Injectable()
export class StorefrontQrService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly types: EntityTypeRegistry,
    private readonly repository: StorefrontRepository,
  ) {}

  async storefrontUrl(businessMetaKey: string, menuMetaKey: string): Promise<string> {
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
    if (!business?.metaKey || !menu?.metaKey) {
      throw ApiError.notFound('This business has no public menu with this meta_key.');
    }
    // The stored meta_keys, so every spelling of the address prints the same code.
    return `${this.config.frontUrl}/app/${encodeURIComponent(business.metaKey)}/menu/${encodeURIComponent(menu.metaKey)}`;
  }

  async svg(businessMetaKey: string, menuMetaKey: string): Promise<StorefrontQr> {
    const url = await this.storefrontUrl(businessMetaKey, menuMetaKey);
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
  ): Promise<StorefrontQr> {
    const url = await this.storefrontUrl(businessMetaKey, menuMetaKey);
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

import { Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../../auth/auth.decorator';
import { AppConfig, DEVELOPMENT_API_KEY } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { ApiError } from '../../http/api-error';
import { RawResponse } from '../../http/envelope-routes';
import { SpaceController } from '../../http/url-space';

const STATIC = join(__dirname, 'static');
const ASSETS: Readonly<Record<string, string>> = {
  'kitchen.js': 'text/javascript; charset=utf-8',
  'kitchen.css': 'text/css; charset=utf-8',
};

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The kitchen display: a page for a tablet on the kitchen wall, made of
 * static files the service serves itself (no build step, nothing from
 * elsewhere), talking to the same public API as any client. The page needs
 * no credentials; everything it shows comes through the API with the
 * member's own token. KITCHEN_DISPLAY_ENABLED=false answers 404.
 */
@ApiExcludeController()
@Public()
@SpaceController('root', 'kitchen')
export class KitchenDisplayController {
  private readonly page: string;
  private readonly assets = new Map<string, Buffer>();

  constructor(@InjectConfig() private readonly config: AppConfig) {
    // Read once: the page names the API's prefix and, outside production
    // with no API_KEYS set, the development key the sign-in form starts with.
    const devKey =
      config.nodeEnv !== 'production' && config.usingDevelopmentApiKey ? DEVELOPMENT_API_KEY : '';
    this.page = readFileSync(join(STATIC, 'index.html'), 'utf8')
      .replace('{{API_BASE}}', escapeAttribute(`/public/api/v1/${config.namespace}`))
      .replace('{{ENTITY_TYPE}}', escapeAttribute(`${config.namespace}_business`))
      .replace('{{DEV_API_KEY}}', escapeAttribute(devKey));
    for (const name of Object.keys(ASSETS)) {
      this.assets.set(name, readFileSync(join(STATIC, name)));
    }
  }

  private enabled(): void {
    if (!this.config.kitchenDisplayEnabled) throw ApiError.notFound('Not found.');
  }

  @Get()
  @RawResponse()
  showKitchenDisplay(@Res() res: Response): void {
    this.enabled();
    res
      .status(200)
      .type('text/html; charset=utf-8')
      .set('Cache-Control', 'no-cache')
      .send(this.page);
  }

  @Get(':asset')
  @RawResponse()
  getKitchenDisplayAsset(@Param('asset') asset: string, @Res() res: Response): void {
    this.enabled();
    const body = this.assets.get(asset);
    if (!body) throw ApiError.notFound('Not found.');
    res.status(200).type(ASSETS[asset]).set('Cache-Control', 'no-cache').send(body);
  }
}

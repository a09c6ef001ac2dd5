import { Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { StorefrontResponseDto } from './dto/entity-response.dto';
import { StorefrontService } from './storefront.service';

@ApiTags('storefront')
@SpaceController('core', 'storefront')
export class StorefrontController {
  constructor(private readonly storefront: StorefrontService) {}

  /**
   * D17: the public business, its public menu and the menu's public items
   * (by extra_data.sort_position, then created_at) for the storefront URL
   * `{front_url}/app/<business_meta_key>/menu/<menu_meta_key>`, in one call.
   * meta_keys match ignoring case. May be a few seconds old, except that a
   * write to any of these records shows at once.
   */
  @Get(':business_meta_key/menu/:menu_meta_key')
  @ApiKeyOnly()
  @Message('Storefront found')
  @ApiEnvelope(StorefrontResponseDto)
  @ApiErrors(404)
  getStorefront(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
  ): Promise<StorefrontResponseDto> {
    return this.storefront.getStorefront(businessMetaKey, menuMetaKey);
  }
}

import { Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { SpaceController } from '../http/url-space';
import { SlotDto, SlotsQueryDto } from './dto/slots.dto';
import { OrderFulfilment } from './order-fulfilment';

@ApiTags('storefront')
@SpaceController('core', 'storefront')
export class OrderSlotsController {
  constructor(private readonly fulfilment: OrderFulfilment) {}

  /**
   * The time slots of a day that take orders for later
   *
   * @remarks The slots of one local day (`date`, `YYYY-MM-DD` in the business's time zone: the
   * zone of its opening hours, else UTC) that an order for later may still be placed for: each
   * starts on the menu's slot grid, at least its prep time from now, inside the opening hours
   * (closures included), with `remaining` places under the menu's cap per slot (null without a
   * cap; a full slot is left out). `[]` for a day outside the menu's window or a menu that takes
   * no orders for later. 400 for a malformed date; 404 when the menu is not public.
   */
  @Get(':business_meta_key/menu/:menu_meta_key/slots')
  @ApiKeyOnly()
  @ApiEnvelope(SlotDto, { isArray: true })
  @ApiErrors(400, 404)
  getSlots(
    @Param('business_meta_key') businessMetaKey: string,
    @Param('menu_meta_key') menuMetaKey: string,
    @Query() query: SlotsQueryDto,
  ): Promise<SlotDto[]> {
    return this.fulfilment.slotsOfDay(businessMetaKey, menuMetaKey, query.date);
  }
}

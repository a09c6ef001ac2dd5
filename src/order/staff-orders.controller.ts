import { Body, Headers, Ip, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { PlacedOrderResponseDto } from './dto/order-response.dto';
import { StaffOrderDto } from './dto/staff-order.dto';
import { OrderPlacementService } from './order-placement.service';

/** Orders the team takes, under /public/api/v1/{ns}. */
@ApiTags('orders')
@SpaceController('core', 'businesses/:business_uuid/orders')
@ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
export class StaffOrdersController {
  constructor(private readonly placement: OrderPlacementService) {}

  @Post()
  @ApiOperation({
    summary: 'Take an order as the team',
    description:
      'Owner, manager or staff of the business (a business the caller has no part in is 404): the guest’s ' +
      'order body (the email optional) with `channel` (`phone`, `walk_in`, `waiter`). The same prices, ' +
      'rules, stock and fulfilment apply as to a guest’s order; the opening hours and the ' +
      '`accepting_orders` switch do not. `"accept": true` places it accepted at once. `tab_uuid` makes it ' +
      'a round of that open tab (409 when it is settling or closed); a dine-in order for a table of a menu ' +
      'with `fulfilment.dine_in.pay_at_end` joins the table’s tab without it, opening one when there is ' +
      'none. The order records `created_by` (the member) and its first history entry names the member ' +
      '(`by`) and their role (`actor`).',
  })
  @Auth()
  @Message('Order placed')
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '1–128 visible ASCII characters. The same key with the same body within 24 h answers the first order again; with another body, 409.',
  })
  @ApiEnvelope(PlacedOrderResponseDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422)
  placeStaffOrder(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Body() dto: StaffOrderDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Ip() ip: string,
  ): Promise<ApiResult<PlacedOrderResponseDto>> {
    return this.placement.placeStaffOrder(user, businessUuid, dto, idempotencyKey, ip);
  }
}

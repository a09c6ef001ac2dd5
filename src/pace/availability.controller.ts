import { Body, Get, Param, Put } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { SpaceController } from '../http/url-space';
import { AvailabilityService } from './availability.service';
import { AvailabilityResponseDto, SetAvailabilityDto } from './dto/availability.dto';

/**
 * The kitchen's switch of a business, for its owner, managers and staff (a
 * business the caller has no part in is 404): `open`, `busy` (every new
 * order's ready time and the earliest slot take `extra_prep_minutes`
 * longer) or `paused` (no order for now; orders for later still), back to
 * `open` by itself at `until`.
 */
@ApiTags('availability')
@SpaceController('core', 'businesses/:business_uuid/availability')
@ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityService) {}

  /**
   * Reads the kitchen's switch.
   *
   * @remarks The mode as it stands now (an `until` that has passed reads as
   * `open`; `accepting_orders: false` on the business reads as `paused` with
   * no `until`), with who changed it last through this route and when.
   */
  @Get()
  @Auth()
  @ApiEnvelope(AvailabilityResponseDto)
  @ApiErrors(403, 404)
  getAvailability(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
  ): Promise<AvailabilityResponseDto> {
    return this.availability.read(user, businessUuid);
  }

  /**
   * Sets the kitchen's switch.
   *
   * @remarks `busy` needs `extra_prep_minutes` (5–180), which goes with
   * `busy` only (400 otherwise); `until` must be in the future and at most
   * 12 hours ahead (400 naming `until`), and returns the mode to `open` by
   * itself. Setting `open` or `busy` also sets the business's
   * `accepting_orders` to true. Each change is recorded with who made it and
   * sent as the webhook `business.availability_changed`; the storefront
   * shows it at once.
   */
  @Put()
  @Auth()
  @ApiEnvelope(AvailabilityResponseDto)
  @ApiErrors(400, 403, 404)
  setAvailability(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Body() dto: SetAvailabilityDto,
  ): Promise<AvailabilityResponseDto> {
    return this.availability.set(user, businessUuid, dto);
  }
}

import { Body, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { SpaceController } from '../http/url-space';
import { CreateDiscountDto, DiscountResponseDto, UpdateDiscountDto } from './dto/discount.dto';
import { DiscountService } from './discount.service';

/**
 * A business's discount codes, for its owner and managers (staff are 403; a
 * business the caller has no part in is 404). Guests use a code with the
 * order's `discount_code`; the storefront never lists them.
 */
@ApiTags('discounts')
@SpaceController('core', 'businesses/:business_uuid/discounts')
@ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
export class DiscountController {
  constructor(private readonly discounts: DiscountService) {}

  /**
   * Creates a discount code.
   *
   * @remarks `code` is 3–32 of A–Z, 0–9, `-` and `_`, compared without regard
   * to case and unique per business (409). `percent` takes value % of the
   * items' subtotal (value 0–100); `fixed` takes value off (a positive
   * amount), never more than the subtotal. `starts_at` must be before
   * `ends_at`. Amounts are decimal text; a JSON number is read as its text.
   */
  @Post()
  @Auth()
  @ApiEnvelope(DiscountResponseDto, { status: 201 })
  @ApiErrors(400, 403, 404, 409)
  createDiscount(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Body() dto: CreateDiscountDto,
  ): Promise<ApiResult<DiscountResponseDto>> {
    return this.discounts.create(user, businessUuid, dto);
  }

  /**
   * Lists the business's discount codes.
   *
   * @remarks Oldest first, each with its `redemptions` counted; deleted codes are not listed.
   */
  @Get()
  @Auth()
  @ApiEnvelope(DiscountResponseDto, { isArray: true })
  @ApiErrors(403, 404)
  listDiscounts(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
  ): Promise<DiscountResponseDto[]> {
    return this.discounts.list(user, businessUuid);
  }

  /**
   * Reads one discount code.
   *
   * @remarks With its `redemptions` counted. A deleted code, or one of another business, is 404.
   */
  @Get(':uuid')
  @Auth()
  @ApiEnvelope(DiscountResponseDto)
  @ApiErrors(403, 404)
  getDiscount(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Param('uuid') uuid: string,
  ): Promise<DiscountResponseDto> {
    return this.discounts.get(user, businessUuid, uuid);
  }

  /**
   * Changes a discount code.
   *
   * @remarks Only the fields sent change; null clears an optional one. The
   * same rules as at creation hold for the result. Orders already placed
   * keep the discount they got.
   */
  @Put(':uuid')
  @Auth()
  @ApiEnvelope(DiscountResponseDto)
  @ApiErrors(400, 403, 404, 409)
  updateDiscount(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Param('uuid') uuid: string,
    @Body() dto: UpdateDiscountDto,
  ): Promise<DiscountResponseDto> {
    return this.discounts.update(user, businessUuid, uuid, dto);
  }

  /**
   * Deletes a discount code: it is disabled for good.
   *
   * @remarks Orders placed with it keep their discount; the code cannot be created again.
   */
  @Delete(':uuid')
  @Auth()
  @ApiEnvelope(null)
  @ApiErrors(403, 404)
  async deleteDiscount(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Param('uuid') uuid: string,
  ): Promise<ApiResult<null>> {
    await this.discounts.remove(user, businessUuid, uuid);
    return new ApiResult(null, 'Discount code deleted');
  }
}

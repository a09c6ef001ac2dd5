import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { SpaceController } from '../http/url-space';
import {
  AdjustStockDto,
  StockItemResponseDto,
  StockLedgerEntryDto,
  StockListQueryDto,
} from './dto/stock.dto';
import { StockService } from './stock.service';

/**
 * A business's stock: the portions of its stocked items, their adjustments
 * and the ledger of every change, for its owner, managers and staff (a
 * business the caller has no part in is 404).
 */
@ApiTags('stock')
@SpaceController('core', 'businesses/:business_uuid/stock')
@ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
export class StockController {
  constructor(private readonly stock: StockService) {}

  /**
   * Lists the business's stocked items and their portions for a day.
   *
   * @remarks Every live item with `extra_data.stock`, by title: `quantity`
   * (the setting's and the day's adjustments), `taken` by orders,
   * `remaining` (never below 0) and `low` (`remaining` ≤ `low_at`). `date` is
   * a local day of the business (default today); count stock has one count
   * whatever the day.
   */
  @Get()
  @Auth()
  @ApiEnvelope(StockItemResponseDto, { isArray: true })
  @ApiErrors(400, 404)
  listStock(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: StockListQueryDto,
  ): Promise<StockItemResponseDto[]> {
    return this.stock.list(user, businessUuid, query.date);
  }

  /**
   * Adjusts an item's portions: a restock, a recount, waste or a correction.
   *
   * @remarks `delta` adds (or, negative, takes away) portions; `set` sets what
   * remains, what orders took staying taken. Daily stock is adjusted for
   * today only. What remains never falls below 0: taking away more than
   * remains is 422 with `taken` and `remaining`. Each adjustment is a ledger
   * entry with who made it and why.
   */
  @Post(':item_uuid/adjust')
  @HttpCode(200)
  @Auth()
  @ApiParam({ name: 'item_uuid', format: 'uuid', description: 'The stocked item.' })
  @ApiEnvelope(StockItemResponseDto)
  @ApiErrors(400, 404, 422)
  async adjustStock(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Param('item_uuid') itemUuid: string,
    @Body() dto: AdjustStockDto,
  ): Promise<ApiResult<StockItemResponseDto>> {
    const adjusted = await this.stock.adjust(user, businessUuid, itemUuid, dto);
    return new ApiResult(adjusted, 'Stock adjusted');
  }

  /**
   * Reads an item's stock ledger.
   *
   * @remarks Every change, newest first (at most 1000): orders' takes
   * (`order`, negative) and returns (`order_returned`) with the order's uuid,
   * and adjustments with their reason and note; `by` and `actor` say who.
   */
  @Get(':item_uuid/ledger')
  @Auth()
  @ApiParam({ name: 'item_uuid', format: 'uuid', description: 'The stocked item.' })
  @ApiEnvelope(StockLedgerEntryDto, { isArray: true })
  @ApiErrors(404)
  readStockLedger(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Param('item_uuid') itemUuid: string,
  ): Promise<StockLedgerEntryDto[]> {
    return this.stock.ledger(user, businessUuid, itemUuid);
  }
}

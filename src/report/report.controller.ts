import { Get, Param, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message, RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { ItemsReportResponseDto } from './dto/items-report.dto';
import {
  ExportOrdersQueryDto,
  ItemsReportQueryDto,
  SalesReportQueryDto,
} from './dto/report-query.dto';
import { SalesReportResponseDto, SalesShareDto } from './dto/sales-report.dto';
import { ExportService } from './export.service';
import { ReportService } from './report.service';

/**
 * What a business sold, when and for how much, and every order as CSV. Days
 * are local days of the business's time zone (its opening hours' zone, else
 * UTC); `from` and `to` are both counted, at most 366 days. Owners and
 * managers only: staff are refused (403), a business the caller has no part
 * in answers 404.
 */
@ApiTags('reports')
@ApiExtraModels(SalesShareDto)
@SpaceController('core', 'businesses/:business_uuid')
@ApiParam({
  name: 'business_uuid',
  format: 'uuid',
  description: 'The business.',
})
export class ReportController {
  constructor(
    private readonly reports: ReportService,
    private readonly exports: ExportService,
  ) {}

  /**
   * The sales of a period, by day, hour, weekday or month.
   *
   * @remarks A sale is an order accepted, preparing, ready, out for delivery or completed: only
   * sales are summed. Pending orders are counted as `open_orders`, rejected and cancelled ones as
   * `lost_orders`. Money is summed exactly and written as strings; `net` is `total` less
   * `refunded`. Every bucket of the period is listed, those without orders with zeros (a week by
   * day has 7 rows; by hour, a day whose clocks change has 23 or 25). A malformed date or a `to`
   * before `from` is 400; a period over 366 days is 422.
   */
  @Get('reports/sales')
  @Auth()
  @Message('Sales report')
  @ApiEnvelope(SalesReportResponseDto)
  @ApiErrors(400, 403, 404, 422)
  getSalesReport(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: SalesReportQueryDto,
  ): Promise<SalesReportResponseDto> {
    return this.reports.sales(user, businessUuid, query);
  }

  /**
   * The items sold in a period, by revenue.
   *
   * @remarks Sales only. Each item with its title as the latest line had it, the units sold, the
   * revenue of its lines (options included, before order discounts), the sales that had it, and
   * the options chosen with it counted in units. Delivery lines are not items. Ordered by revenue,
   * then units.
   */
  @Get('reports/items')
  @Auth()
  @Message('Items report')
  @ApiEnvelope(ItemsReportResponseDto)
  @ApiErrors(400, 403, 404, 422)
  getItemsReport(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: ItemsReportQueryDto,
  ): Promise<ItemsReportResponseDto> {
    return this.reports.items(user, businessUuid, query);
  }

  /**
   * Every order of a period as CSV.
   *
   * @remarks RFC 4180, UTF-8, a header row, sent as an attachment named
   * `orders-<from>-<to>.csv`, oldest order first, every status included. Columns: order_reference,
   * uuid, created_at (local, with its offset), status, payment_processor, payment_status,
   * payment_channels (the channels of its paid payments, `;`-separated), fulfilment_type, requested_time, customer_email_address, customer_phone_number,
   * items_subtotal, delivery_fee, discount, discount_code, service_charge, tax, tip, total,
   * refunded, channel (`online`, or `phone`, `walk_in`, `waiter` for an order the team took); with `lines=true` one row per order line, followed by item_uuid, title_name, options,
   * quantity, unit_price_amount, line_total. A cell beginning with `=`, `+`, `-`, `@`, a tab or a
   * carriage return is prefixed with `'` so that spreadsheets do not run it as a formula. Streamed
   * as it is read: any number of orders.
   */
  @Get('orders.csv')
  @Auth()
  @RawResponse()
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The CSV file', schema: { type: 'string' } })
  @ApiErrors(400, 403, 404, 422)
  exportOrdersCsv(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: ExportOrdersQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    return this.exports.exportOrders(user, businessUuid, query, res);
  }
}

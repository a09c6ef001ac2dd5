import { Body, Get, Headers, HttpCode, Ip, Param, Post, Query, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { PaymentRecordResponseDto } from '../../payment';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../../http/api-docs';
import { Message, RawResponse } from '../../http/envelope-routes';
import { SpaceController } from '../../http/url-space';
import {
  CloseTabDto,
  ListTabsQueryDto,
  PayShareChargeDto,
  PayShareDto,
  SplitTabDto,
  TabResponseDto,
} from './tab.dto';
import { TabsService } from './tabs.service';

const SPLIT_RULES =
  '`{"by": "equal", "parts": n}` (1–50 parts differing by at most 0.01), `{"by": "items", "shares": ' +
  '[{"lines": [{"order_uuid", "line_uuid", "quantity"}]}]}` (every unpaid line’s quantity in exactly ' +
  'one share; the amount due, service charge, tax and discount included, apportioned by the lines’ ' +
  'values, each share rounded down to the cent and the rest to the largest share) or `{"by": "amount", ' +
  '"amounts": ["12.00", …]}` (summing to the amount due, else 422). The shares always sum to the amount ' +
  'due exactly; a new split replaces the unpaid shares only. The tab becomes `settling` and takes no ' +
  'new round (409). A closed tab, or one with nothing due, is 409. Answers 200 with the tab.';

/** A business's tabs for its team, under /public/api/v1/{ns}. */
@ApiTags('tabs')
@SpaceController('core')
export class TabsController {
  constructor(private readonly tabs: TabsService) {}

  @Get('businesses/:business_uuid/tabs')
  @ApiOperation({
    summary: 'List the tabs of a business',
    description:
      'Owner, manager or staff: the business’s tabs, newest first (at most 200), each with its rounds, ' +
      'total, paid, due and shares; `status` filters (`open`, `settling`, `closed`). A business the caller ' +
      'has no part in is 404.',
  })
  @ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
  @Auth()
  @ApiEnvelope(TabResponseDto, { isArray: true })
  @ApiErrors(400, 404)
  listTabs(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: ListTabsQueryDto,
  ): Promise<TabResponseDto[]> {
    return this.tabs.list(user, businessUuid, query.status);
  }

  @Get('tabs/:uuid')
  @ApiOperation({
    summary: 'Read a tab',
    description:
      'Owner, manager or staff of its business: the tab with its rounds (each an order), total, paid, ' +
      'due, shares and the party’s `tab_token`. Another business’s tab is 404.',
  })
  @Auth()
  @ApiEnvelope(TabResponseDto)
  @ApiErrors(404)
  getTab(@CurrentUser() user: AuthUser, @Param('uuid') uuid: string): Promise<TabResponseDto> {
    return this.tabs.forStaff(user, uuid);
  }

  @Post('tabs/:uuid/split')
  @HttpCode(200)
  @Message('Tab split')
  @ApiOperation({
    summary: 'Split a tab’s bill into shares',
    description: `Owner, manager or staff. ${SPLIT_RULES}`,
  })
  @Auth()
  @ApiEnvelope(TabResponseDto)
  @ApiErrors(400, 404, 409, 422)
  splitTab(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
    @Body() dto: SplitTabDto,
  ): Promise<TabResponseDto> {
    return this.tabs.splitByStaff(user, uuid, dto);
  }

  @Post('tabs/:uuid/shares/:share_uuid/payments')
  @HttpCode(201)
  @Message('Share paid')
  @ApiOperation({
    summary: 'Record a share of a tab paid in cash or by transfer',
    description:
      'Owner, manager or staff: `{"method": "cash"|"bank_transfer", "tip_amount"}` records the share paid ' +
      '(one payment of its amount, with the tip, which does not count toward the tab’s total). A share ' +
      'already paid is 409 (two people recording one share at once record it once); a replaced or ' +
      'unknown share is 404; a closed tab 409. When what is paid reaches the tab’s total the tab closes ' +
      'by itself and its rounds become `paid`. Answers 201 with the tab.',
  })
  @Auth()
  @ApiEnvelope(TabResponseDto, { status: 201 })
  @ApiErrors(400, 404, 409)
  payTabShare(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
    @Param('share_uuid') shareUuid: string,
    @Body() dto: PayShareDto,
  ): Promise<TabResponseDto> {
    return this.tabs.payShareByStaff(user, uuid, shareUuid, dto);
  }

  @Post('tabs/:uuid/close')
  @HttpCode(200)
  @Message('Tab closed')
  @ApiOperation({
    summary: 'Close a tab',
    description:
      'A tab with nothing due may be closed by anyone who takes orders; with money due only by the owner ' +
      'or a manager (staff: 403), with a `reason` (422 without), kept on the tab with who closed it. A ' +
      'closed tab takes no round and its token opens nothing new: the table’s next party starts a new ' +
      'tab. Closing a closed tab is 409. Answers 200 with the tab; `tab.closed` goes to the webhooks.',
  })
  @Auth()
  @ApiEnvelope(TabResponseDto)
  @ApiErrors(400, 403, 404, 409, 422)
  closeTab(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
    @Body() dto: CloseTabDto,
  ): Promise<TabResponseDto> {
    return this.tabs.close(user, uuid, dto);
  }
}

const TAB_TOKEN_HEADER = {
  name: 'x-tab-token',
  required: false,
  description: 'The tab_token of the answer that opened the tab (or send it as ?tab_token=).',
};
const TAB_TOKEN_QUERY = {
  name: 'tab_token',
  type: String,
  required: false,
  description: 'The tab_token, when no x-tab-token header is sent.',
};

function tokenOf(header: string | undefined, query: unknown): unknown {
  return header !== undefined && header !== '' ? header : query;
}

/** The party's own view of its tab, under /plugins/{ns}/{ns}-init, with its tab token. */
@ApiTags('tabs')
@SpaceController('orders')
export class TabGuestController {
  constructor(private readonly tabs: TabsService) {}

  @Get('tab/:uuid')
  @ApiOperation({
    summary: 'Read a tab as its party',
    description:
      'API key and the tab token: the tab with its rounds (as their guest sees orders: no member uuids, ' +
      'no owner notes), total, paid, due and shares. A wrong or missing token is 404, as for an unknown tab.',
  })
  @ApiKeyOnly()
  @ApiHeader(TAB_TOKEN_HEADER)
  @ApiQuery(TAB_TOKEN_QUERY)
  @ApiEnvelope(TabResponseDto)
  @ApiErrors(404)
  getGuestTab(
    @Param('uuid') uuid: string,
    @Headers('x-tab-token') header: string | undefined,
    @Query('tab_token') query: unknown,
  ): Promise<TabResponseDto> {
    return this.tabs.forGuest(uuid, tokenOf(header, query));
  }

  @Get('tab/:uuid/stream')
  @ApiOperation({
    summary: 'Follow a tab as its party (Server-Sent Events)',
    description:
      'The events of the tab’s rounds: `order.created` when a round joins it, `order.updated` when one ' +
      'changes (status, payment), each with the round’s summary as JSON `data`, and a comment line as ' +
      'heartbeat every 15 s. EventSource cannot send headers, so the key and the token go in the query ' +
      '(`api_key`, `tab_token`). A wrong or missing token is 404, as for an unknown tab.',
  })
  @Auth({ bearer: 'none', queryCredentials: true })
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiQuery({
    name: 'api_key',
    type: String,
    required: false,
    description: 'The API key, for EventSource',
  })
  @ApiHeader(TAB_TOKEN_HEADER)
  @ApiQuery(TAB_TOKEN_QUERY)
  @ApiOkResponse({ description: 'An endless event stream', schema: { type: 'string' } })
  @ApiErrors(404)
  streamGuestTab(
    @Param('uuid') uuid: string,
    @Headers('x-tab-token') header: string | undefined,
    @Query('tab_token') query: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.tabs.streamForGuest(uuid, tokenOf(header, query), req, res);
  }

  @Post('tab/:uuid/shares/:share_uuid/payments')
  @Message('Payment opened')
  @ApiOperation({
    summary: 'Pay a share of a tab as its party',
    description:
      'API key and the tab token (404 when wrong or missing): the body of an order page’s payment ' +
      '(`{"channel": "ussd", "bank": "737"}`, mobile money or `bank_transfer`) and an optional ' +
      '`tip_amount`, charged with the share through Paystack’s Charge API; answers 201 with the ' +
      'payment and its `next_action`. A share already paid, or with a charge still open, is 409 before ' +
      'Paystack is asked, so two guests paying one share at once pay it once. The charge confirms ' +
      'itself as an order’s does; the share becomes paid, and the tab closes when all is paid.',
  })
  @ApiKeyOnly()
  @ApiHeader(TAB_TOKEN_HEADER)
  @ApiQuery(TAB_TOKEN_QUERY)
  @ApiEnvelope(PaymentRecordResponseDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422, 429)
  payGuestTabShare(
    @Param('uuid') uuid: string,
    @Param('share_uuid') shareUuid: string,
    @Headers('x-tab-token') header: string | undefined,
    @Query('tab_token') query: unknown,
    @Body() dto: PayShareChargeDto,
    @Ip() ip: string,
  ): Promise<PaymentRecordResponseDto> {
    return this.tabs.payShareByGuest(uuid, tokenOf(header, query), shareUuid, dto, ip);
  }

  @Post('tab/:uuid/split')
  @HttpCode(200)
  @Message('Tab split')
  @ApiOperation({
    summary: 'Split a tab’s bill as its party',
    description: `API key and the tab token (404 when wrong or missing). ${SPLIT_RULES}`,
  })
  @ApiKeyOnly()
  @ApiHeader(TAB_TOKEN_HEADER)
  @ApiQuery(TAB_TOKEN_QUERY)
  @ApiEnvelope(TabResponseDto)
  @ApiErrors(400, 404, 409, 422)
  splitGuestTab(
    @Param('uuid') uuid: string,
    @Headers('x-tab-token') header: string | undefined,
    @Query('tab_token') query: unknown,
    @Body() dto: SplitTabDto,
  ): Promise<TabResponseDto> {
    return this.tabs.splitByGuest(uuid, tokenOf(header, query), dto);
  }
}

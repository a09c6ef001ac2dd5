import { Body, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message, RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import {
  DocketQueryDto,
  ListTicketsQueryDto,
  MoveLineDto,
  StreamTicketsQueryDto,
  TicketResponseDto,
} from './dto/ticket.dto';
import { KitchenService } from './kitchen.service';
import { KitchenStreams } from './realtime/kitchen-streams';

/**
 * A business's kitchen: its tickets, one per station with lines of an
 * accepted order, and their live stream. The owner, managers and staff of
 * the business; anyone else finds nothing (404).
 */
@ApiTags('kitchen')
@SpaceController('core', 'businesses/:business_uuid/kitchen')
@ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
export class KitchenBusinessController {
  constructor(
    private readonly kitchen: KitchenService,
    private readonly streams: KitchenStreams,
  ) {}

  /**
   * Lists the kitchen's tickets.
   *
   * @remarks Oldest first, paged (100 a page). `status` is `open` (default: a line is not ready,
   * or a void ticket not bumped), `done` or `all`; `station` narrows to one station. `meta.cursor`
   * names what this answer saw: sent back as `since`, the answer holds only the tickets that
   * changed after it, in the order they changed, whatever their status unless `status` says.
   */
  @Get('tickets')
  @Auth()
  @ApiEnvelope(TicketResponseDto, { isArray: true, paged: true })
  @ApiErrors(400, 404)
  listKitchenTickets(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: ListTicketsQueryDto,
  ): Promise<ApiResult<TicketResponseDto[]>> {
    return this.kitchen.listTickets(user, businessUuid, query);
  }

  /**
   * Streams the kitchen's tickets (Server-Sent Events).
   *
   * @remarks An endless `text/event-stream` of `ticket.created` and `ticket.updated`, each with the
   * whole ticket as JSON `data`, from every replica of the service, and a comment line every 15 s
   * as heartbeat; `station` narrows it to one station. EventSource cannot send headers, so
   * `?api_key=` and `?access_token=` are accepted too. The stream ends with a `stream.closed`
   * event saying why within 5 s of its token ending (expiry, password change or reset) or of the
   * caller no longer working for the business.
   */
  @Get('stream')
  @Auth({ queryCredentials: true })
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiQuery({ name: 'api_key', required: false, description: 'The API key, for EventSource' })
  @ApiQuery({ name: 'access_token', required: false, description: 'The JWT, for EventSource' })
  @ApiOkResponse({ description: 'An endless event stream', schema: { type: 'string' } })
  @ApiErrors(400, 404)
  async streamKitchenTickets(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: StreamTicketsQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const business = await this.kitchen.streamScope(user, businessUuid);
    this.streams.open(user, business, query.station, req, res);
  }
}

/** One ticket: moving its lines, bumping it, and its dockets. */
@ApiTags('kitchen')
@SpaceController('core', 'kitchen/tickets/:ticket_uuid')
@ApiParam({ name: 'ticket_uuid', format: 'uuid', description: 'The ticket.' })
export class KitchenTicketController {
  constructor(private readonly kitchen: KitchenService) {}

  /**
   * Moves one line of a ticket.
   *
   * @remarks `queued` → `preparing` → `ready`, one step at a time, forward or back one for a
   * mistake; a bigger move is 422, as is a line of a done ticket. The order follows: an accepted
   * order becomes `preparing` at its first line in preparation and `ready` when every line of all
   * its tickets is ready, in its history under the member who made the move.
   */
  @Put('lines/:line_uuid')
  @Auth()
  @ApiParam({ name: 'line_uuid', format: 'uuid', description: 'The line of the ticket.' })
  @Message('Line moved')
  @ApiEnvelope(TicketResponseDto)
  @ApiErrors(400, 404, 422)
  moveTicketLine(
    @CurrentUser() user: AuthUser,
    @Param('ticket_uuid') ticketUuid: string,
    @Param('line_uuid') lineUuid: string,
    @Body() dto: MoveLineDto,
  ): Promise<TicketResponseDto> {
    return this.kitchen.moveLine(user, ticketUuid, lineUuid, dto);
  }

  /**
   * Bumps a ticket: every line ready.
   *
   * @remarks The ticket is done; the order becomes `ready` when it was its last open ticket. A void
   * ticket (of a cancelled order) is bumped once the kitchen has seen it. A done ticket is 422.
   */
  @Post('bump')
  @HttpCode(200)
  @Auth()
  @Message('Ticket bumped')
  @ApiEnvelope(TicketResponseDto)
  @ApiErrors(404, 422)
  bumpTicket(
    @CurrentUser() user: AuthUser,
    @Param('ticket_uuid') ticketUuid: string,
  ): Promise<TicketResponseDto> {
    return this.kitchen.bumpTicket(user, ticketUuid);
  }

  /**
   * The ticket's docket as plain text.
   *
   * @remarks ASCII lines of at most `width` characters (32 for 58 mm paper, 42 by default, 48 for
   * 80 mm): the station, the order reference, the table or pickup or delivery, the times placed
   * and wanted, each line with its quantity, options, note and allergens, and the general note.
   * Every docket after the first of a ticket says REPRINT at the top. Characters outside ASCII
   * are written in their closest ASCII form (`é` as `e`).
   */
  @Get('docket.txt')
  @Auth()
  @RawResponse()
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The docket', schema: { type: 'string' } })
  @ApiErrors(400, 404)
  async getDocketText(
    @CurrentUser() user: AuthUser,
    @Param('ticket_uuid') ticketUuid: string,
    @Query() query: DocketQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    const text = await this.kitchen.docket(user, ticketUuid, query, 'text');
    res
      .status(200)
      .type('text/plain; charset=us-ascii')
      .set('Cache-Control', 'no-store')
      .send(text);
  }

  /**
   * The ticket's docket as ESC/POS bytes.
   *
   * @remarks The text docket for a receipt printer: initialise, the header in double height, the
   * lines, a feed and a cut. Send it to the printer as it is (`lp -o raw`).
   */
  @Get('docket.bin')
  @Auth()
  @RawResponse()
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({
    description: 'The docket as ESC/POS bytes',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiErrors(400, 404)
  async getDocketBytes(
    @CurrentUser() user: AuthUser,
    @Param('ticket_uuid') ticketUuid: string,
    @Query() query: DocketQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    const bytes = await this.kitchen.docket(user, ticketUuid, query, 'bytes');
    res.status(200).type('application/octet-stream').set('Cache-Control', 'no-store').send(bytes);
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { maskPhone } from '../common/phone-number';
import { isUuid } from '../common/uuid';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { ApiResult, pageMeta } from '../http/envelope';
import { DEFAULT_PER_PAGE } from '../http/page-query.dto';
import { OrderRepository, OrderTokens } from '../order';
import { AccessPolicy } from '../team';
import { startOfDayIn, timeZoneOf } from './domain/guest-message-settings';
import {
  GuestMessageResponseDto,
  ListGuestMessagesQueryDto,
  StopMessagesResponseDto,
  toGuestMessageResponse,
  WhatsAppWebhookReceiptDto,
} from './dto/guest-message.dto';
import { GuestMessageDelivery } from './guest-message-delivery';
import { GuestMessageRepository } from './guest-message.repository';
import { WHATSAPP_UNDELIVERABLE } from './providers/whatsapp-cloud.provider';

/** The log's default span: the last 30 days. */
const DEFAULT_DAYS = 30;

/** A status WhatsApp reports of a message, as its webhook sends it. */
interface WhatsAppStatus {
  id?: unknown;
  status?: unknown;
  errors?: Array<{ code?: unknown; title?: unknown; message?: unknown }>;
}

function sameSecret(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The local date `YYYY-MM-DD` of `at` in `zone`. */
function localDate(at: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** The calendar date `days` after `date` (both `YYYY-MM-DD`). */
function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

function dayStart(date: string, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  return startOfDayIn(year, month, day, zone);
}

/** The guest's stop, the owner's message log and WhatsApp's status webhook. */
@Injectable()
export class GuestMessageService {
  private readonly logger = new Logger('GuestMessages');

  constructor(
    private readonly repository: GuestMessageRepository,
    private readonly delivery: GuestMessageDelivery,
    private readonly access: AccessPolicy,
    private readonly orders: OrderRepository,
    private readonly tokens: OrderTokens,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  // R104: the guest stops messages to their number from the business, with the order's token.
  async stop(orderUuid: string, token: unknown): Promise<StopMessagesResponseDto> {
    const uuid = isUuid(orderUuid) ? orderUuid.toLowerCase() : null;
    const order =
      uuid && this.tokens.matches(uuid, token) ? await this.orders.findByUuid(uuid) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    const consent = await this.repository.consentOf(order.uuid);
    if (!consent) return { to: null, business_uuid: order.businessUuid, stopped: false };
    await this.repository.transaction((manager) =>
      this.repository.addStop(manager, consent.businessUuid, consent.phone),
    );
    this.logger.log(
      `Guest messages to ${maskPhone(consent.phone)} stopped for business ${consent.businessUuid}`,
    );
    return { to: maskPhone(consent.phone), business_uuid: consent.businessUuid, stopped: true };
  }

  // R106: the message log for the owner and managers; another business's is 404.
  async list(
    user: AuthUser,
    businessUuid: string,
    query: ListGuestMessagesQueryDto,
  ): Promise<ApiResult<GuestMessageResponseDto[]>> {
    if (!isUuid(businessUuid)) throw ApiError.notFound('The business does not exist.');
    const id = businessUuid.toLowerCase();
    await this.access.requireAccess(user, 'messages.read', id, {
      noPart: 'not_found',
      message: 'The business does not exist.',
    });
    const business = await this.repository.business(this.repository.manager, id);
    const zone = timeZoneOf(business?.extraData ?? null);
    const to = query.to ?? localDate(this.clock.now(), zone);
    const from = query.from ?? addDays(to, -(DEFAULT_DAYS - 1));
    if (from > to) {
      throw ApiError.validation([{ field: 'from', message: 'from must not be after to' }]);
    }
    const end = dayStart(addDays(to, 1), zone);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const { rows, total } = await this.repository.list(
      id,
      dayStart(from, zone),
      end,
      page,
      perPage,
    );
    return new ApiResult(rows.map(toGuestMessageResponse), undefined, {
      ...pageMeta(page, perPage, total),
      from,
      to,
    });
  }

  /** WhatsApp's verification handshake: the challenge back for the right verify token, else 403. */
  verifyWhatsApp(mode: unknown, token: unknown, challenge: unknown): string {
    const expected = this.config.guestMessages.whatsappVerifyToken;
    if (
      mode !== 'subscribe' ||
      typeof token !== 'string' ||
      !expected ||
      !sameSecret(token, expected) ||
      typeof challenge !== 'string'
    ) {
      throw ApiError.forbidden('The verify token does not match.');
    }
    return challenge;
  }

  // R106: WhatsApp's statuses, signed with the app secret; a bad signature changes nothing.
  async receiveWhatsApp(
    rawBody: Buffer | undefined,
    headers: IncomingHttpHeaders,
  ): Promise<WhatsAppWebhookReceiptDto> {
    const secret = this.config.guestMessages.whatsappAppSecret;
    const signature = headers['x-hub-signature-256'];
    if (!secret || !rawBody || typeof signature !== 'string') {
      throw ApiError.unauthenticated('The signature is missing or wrong.');
    }
    const expected = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
    if (!sameSecret(signature, expected)) {
      throw ApiError.unauthenticated('The signature is missing or wrong.');
    }
    let body: { entry?: Array<{ changes?: Array<{ value?: { statuses?: WhatsAppStatus[] } }> }> };
    try {
      body = JSON.parse(rawBody.toString('utf8')) as typeof body;
    } catch {
      throw ApiError.badRequest('The body is not JSON.');
    }
    let updated = 0;
    for (const entry of Array.isArray(body?.entry) ? body.entry : []) {
      for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
        const statuses = change?.value?.statuses;
        for (const status of Array.isArray(statuses) ? statuses : []) {
          if (await this.applyStatus(status)) updated++;
        }
      }
    }
    return { updated };
  }

  private async applyStatus(status: WhatsAppStatus): Promise<boolean> {
    const { id, status: to } = status;
    if (typeof id !== 'string' || (to !== 'delivered' && to !== 'read' && to !== 'failed')) {
      return false;
    }
    return this.repository.transaction(async (manager) => {
      const message = await this.repository.findByProviderId(manager, 'whatsapp', id);
      if (!message) return false;
      if (to !== 'failed') {
        return this.repository.move(manager, message.uuid, to, {}, this.clock.now());
      }
      const error = status.errors?.[0];
      const code = typeof error?.code === 'number' ? error.code : null;
      const title = typeof error?.title === 'string' ? error.title : 'failed';
      const before = message.status;
      await this.delivery.failForGood(
        message,
        'whatsapp',
        `WhatsApp error ${code ?? 'unknown'}: ${title}`,
        code !== null && WHATSAPP_UNDELIVERABLE.has(code),
        manager,
      );
      return before !== 'failed' && before !== 'read';
    });
  }
}

import { Injectable } from '@nestjs/common';
import { formatMoney, Money, parsePrice } from '../common/money';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { locationOf, quoteZone } from './domain/delivery-zones';
import { DeliveryQuoteDto, DeliveryQuoteResponseDto } from './dto/delivery-quote.dto';
import { EntityService } from './entity.service';
import { readMenuView } from './extra-data-views';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The delivery mode's minimum of a menu's fulfilment settings (read without
 * zones), or null for none: absent, or "0".
 */
export function deliveryModeMinimum(fulfilment: Record<string, unknown> | null): Money | null {
  const delivery = fulfilment?.delivery;
  const minimum = isObject(delivery) ? parsePrice(delivery.minimum_order_amount) : null;
  return minimum && minimum.gt(0) ? minimum : null;
}

/**
 * Which delivery zone of a menu holds a place and what delivering there
 * costs, before any cart: the same zone, fee, minimum and free delivery
 * threshold as placement, from the menu's zones held per version.
 */
/** Delivery quotes have the quotes' allowance per IP, in a bucket of their own. */
const QUOTE_BUCKET = 'delivery-quote-ip-minute';

@Injectable()
export class DeliveryQuoteService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly entities: EntityService,
    private readonly rateLimit: RateLimitService,
  ) {}

  async quote(dto: DeliveryQuoteDto, clientIp: string): Promise<DeliveryQuoteResponseDto> {
    // R71: guessing where a menu delivers is limited like any quote.
    await this.rateLimit.consume(
      QUOTE_BUCKET,
      clientIp || 'unknown',
      this.config.rateLimitQuotePerMinute,
      60,
    );
    const location = locationOf(dto);
    if (!location.point && !location.area) {
      throw ApiError.validation(
        [{ field: 'latitude', message: 'Send latitude and longitude, or area.' }],
        'A delivery quote needs latitude and longitude, or area.',
      );
    }
    const orderable = await this.entities.findOrderableMenu(dto.menu_uuid, []);
    if (!orderable) throw ApiError.notFound('The menu does not exist or is not open for orders.');
    const fulfilment = readMenuView(orderable.menu.extraData).fulfilment;
    const modes = fulfilment?.modes;
    if (Array.isArray(modes) && !modes.includes('delivery')) {
      throw ApiError.unprocessable('This menu does not deliver.', [
        { field: 'menu_uuid', message: 'this menu does not offer delivery', offered: modes },
      ]);
    }
    const zones = orderable.deliveryZones;
    if (!zones) {
      throw ApiError.unprocessable('This menu has no delivery zones.', [
        { field: 'menu_uuid', message: 'this menu prices delivery without zones' },
      ]);
    }
    const subtotal =
      dto.items_subtotal === undefined ? new Money(0) : parsePrice(dto.items_subtotal)!;
    const field = location.point ? 'latitude' : 'area';
    const quoted = quoteZone(zones, location, deliveryModeMinimum(fulfilment), subtotal, field);
    if (!quoted.ok) {
      throw ApiError.unprocessable('The place is outside the delivery area.', [quoted.detail]);
    }
    const { zone, terms } = quoted;
    return {
      zone: { key: zone.key, title: zone.title },
      fee: formatMoney(terms.fee),
      minimum_order_amount: terms.minimum ? formatMoney(terms.minimum) : null,
      free_above: terms.freeAbove ? formatMoney(terms.freeAbove) : null,
      eta_minutes: terms.etaMinutes,
      shortfall: formatMoney(terms.shortfall),
    };
  }
}

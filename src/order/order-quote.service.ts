import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { EntityService, StorefrontService } from '../entity';
import { ApiError } from '../http/api-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { OrderableItem, PricingProblem, priceCart } from './domain/cart-pricing';
import { isPaymentOffered, offeredProviders } from './domain/payment-methods';
import { toPricingBlock } from './domain/order-pricing';
import { OrderQuoteResponseDto, QuoteOrderDto } from './dto/quote-order.dto';
import { OrderFulfilment } from './order-fulfilment';
import { OrderPricer } from './order-pricer';

/** Placement's bucket: a quote counts against it at most once a second per IP. */
const ORDER_BUCKET = 'order-place-ip';
const QUOTE_TICK_BUCKET = 'order-quote-ip';

/**
 * The price an order body would get, before placing it: the same checks and
 * the same pricing as placement, answering the pricing block and the
 * problems placement would refuse with. Nothing is stored and no discount
 * redemption is used.
 */
@Injectable()
export class OrderQuoteService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly entities: EntityService,
    private readonly storefront: StorefrontService,
    private readonly pricer: OrderPricer,
    private readonly fulfilment: OrderFulfilment,
    private readonly rateLimit: RateLimitService,
  ) {}

  async quote(dto: QuoteOrderDto, clientIp: string): Promise<OrderQuoteResponseDto> {
    await this.countAgainstOrderLimit(clientIp || 'unknown');
    const manager = this.dataSource.manager;
    const orderable = await this.entities.findOrderableMenu(
      dto.menu_uuid,
      dto.cart_items.map((line) => line.uuid),
      manager,
    );
    if (!orderable) throw ApiError.notFound('The menu does not exist or is not open for orders.');
    const { menu, business, items } = orderable;
    const problems: PricingProblem[] = [];

    const open = this.storefront.openStateOf(business);
    if (!open.open && !this.fulfilment.isForLater(dto)) {
      const when = open.nextChangeText ? `; it opens again at ${open.nextChangeText}` : '';
      problems.push({
        field: 'menu_uuid',
        message: `the business is closed${when}`,
        closed: true,
        opens_at: open.nextChangeText,
      });
    }
    const processor = dto.payment_processor ?? 'cash';
    const providers = menu.extraData.menu_checkout_payments_providers;
    if (!isPaymentOffered(processor, providers)) {
      const offered = ['cash', ...[...offeredProviders(providers)].filter((p) => p !== 'cash')];
      problems.push({
        field: 'payment_processor',
        message: `${processor} is not offered by this menu; offered: ${offered.join(', ')}`,
        offered,
      });
    }

    const byUuid = new Map<string, OrderableItem>(items.map((item) => [item.uuid, item]));
    const cart = priceCart(dto.cart_items, byUuid);
    if (!cart.ok) return { pricing: null, problems: [...problems, ...cart.problems] };
    const handOver = this.fulfilment.check(dto, orderable, cart.lines, byUuid);
    problems.push(...(handOver.problems as PricingProblem[]));
    const outcome = await this.pricer.price(manager, {
      body: { ...dto, customer_email_address: dto.customer_email_address ?? '' },
      businessUuid: business.uuid,
      businessExtra: business.extraData,
      menuUuid: menu.uuid,
      lines: cart.lines,
      itemsByUuid: byUuid,
      fulfilmentType: handOver.type,
      lock: false,
    });
    if (!outcome.ok) problems.push(...outcome.problems);
    return {
      pricing: outcome.pricing ? toPricingBlock(outcome.pricing) : null,
      problems,
    };
  }

  /**
   * The first quote of each second from an IP counts as one hit of the
   * order limit (and is refused with 429 when that is spent); the others in
   * the same second do not count.
   */
  private async countAgainstOrderLimit(ip: string): Promise<void> {
    try {
      await this.rateLimit.consume(QUOTE_TICK_BUCKET, ip, 1, 1);
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 429) return;
      throw error;
    }
    await this.rateLimit.consume(ORDER_BUCKET, ip, this.config.rateLimitOrderPerMinute, 60);
  }
}

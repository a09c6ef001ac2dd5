import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { PricingProblem } from './domain/cart-pricing';
import { toPricingBlock } from './domain/order-pricing';
import { OrderQuoteResponseDto, QuoteOrderDto } from './dto/quote-order.dto';
import { PlacementGuards } from './placement-guards';

/** Placement's bucket: a quote counts against it at most once a second per IP. */
const ORDER_BUCKET = 'order-place-ip';
const QUOTE_TICK_BUCKET = 'order-quote-ip';

/**
 * The price an order body would get, before placing it: the same checks and
 * the same pricing as placement, answering the pricing block and the
 * problems placement would refuse with. Nothing is stored and no discount
 * redemption is used.
 */
// R60: quote.
@Injectable()
export class OrderQuoteService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly guards: PlacementGuards,
    private readonly rateLimit: RateLimitService,
  ) {}

  async quote(dto: QuoteOrderDto, clientIp: string): Promise<OrderQuoteResponseDto> {
    await this.countAgainstOrderLimit(clientIp || 'unknown');
    // The placement's own guards, collecting every problem instead of refusing at the first.
    const { state, problems } = await this.guards.run(this.dataSource.manager, dto, 'quote');
    return {
      pricing: state.price ? toPricingBlock(state.price) : null,
      problems: problems as PricingProblem[],
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

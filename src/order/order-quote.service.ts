import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { PricingProblem } from './domain/cart-pricing';
import { toPricingBlock } from './domain/order-pricing';
import { OrderQuoteResponseDto, QuoteOrderDto } from './dto/quote-order.dto';
import { DiscountGuessLimit } from './discount-guess-limit';
import { GuardFindings, PlacementGuards } from './placement-guards';

/** Quotes have an allowance of their own per IP, apart from placement's. */
const QUOTE_BUCKET = 'order-quote-ip-minute';

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
    private readonly guessing: DiscountGuessLimit,
  ) {}

  async quote(dto: QuoteOrderDto, clientIp: string): Promise<OrderQuoteResponseDto> {
    // R71: guessing is limited.
    await this.rateLimit.consume(
      QUOTE_BUCKET,
      clientIp || 'unknown',
      this.config.rateLimitQuotePerMinute,
      60,
    );
    const hit = await this.guessing.admit(clientIp, dto);
    const findings: GuardFindings = { unknownCode: false };
    try {
      // The placement's own guards, collecting every problem instead of refusing at the first.
      const { state, problems } = await this.guards.run(
        this.dataSource.manager,
        dto,
        'quote',
        findings,
      );
      return {
        pricing: state.price ? toPricingBlock(state.price) : null,
        problems: problems as PricingProblem[],
      };
    } finally {
      await this.guessing.settle(hit, findings.unknownCode);
    }
  }
}

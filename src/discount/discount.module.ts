import { Module } from '@nestjs/common';
import { EntityModule } from '../entity';
import { TeamModule } from '../team';
import { DiscountController } from './discount.controller';
import { DiscountRedemptions } from './discount-redemptions';
import { DiscountRepository } from './discount.repository';
import { DiscountService } from './discount.service';

/** Discount codes: their management by a business's owner and managers, and their use by orders. */
@Module({
  imports: [TeamModule, EntityModule],
  controllers: [DiscountController],
  providers: [DiscountRepository, DiscountService, DiscountRedemptions],
  exports: [DiscountRedemptions],
})
export class DiscountModule {}

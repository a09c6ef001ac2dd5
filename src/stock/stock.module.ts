import { Module } from '@nestjs/common';
import { EntityModule } from '../entity';
import { TeamModule } from '../team';
import { StockStorefront } from './stock-storefront';
import { StockController } from './stock.controller';
import { StockRepository } from './stock.repository';
import { StockService } from './stock.service';

/**
 * Stock: portions of items that run out. The order module calls it to take
 * an order's portions; it hears of orders that end through `order.changed`
 * and imports nothing of the order module.
 */
@Module({
  imports: [TeamModule, EntityModule],
  controllers: [StockController],
  providers: [StockRepository, StockService, StockStorefront],
  exports: [StockService],
})
export class StockModule {}

/*
 * The stock module's front door: what other modules may use of it.
 */
export { StockModule } from './stock.module';
export { StockService } from './stock.service';
export type { StockLine, StockTake } from './stock.service';
export { STOCK_ENTITIES } from './stock.entity';

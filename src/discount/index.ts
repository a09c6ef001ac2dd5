export { DiscountModule } from './discount.module';
export { DiscountRedemptions } from './discount-redemptions';
export type { ApplicableDiscount, DiscountCheck, DiscountQuery } from './discount-redemptions';
export { DISCOUNT_ENTITIES } from './discount.entity';

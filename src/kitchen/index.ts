/*
 * The kitchen module's front door: what other modules may use of it.
 */
export { KitchenModule } from './kitchen.module';
export { KITCHEN_ENTITIES } from './entities';

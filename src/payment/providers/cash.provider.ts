import { OfflineProvider } from './payment-provider';

/** Cash on delivery or at the counter: the owner marks it paid. */
export class CashProvider extends OfflineProvider {
  constructor(readonly name = 'cash') {
    super();
  }
}

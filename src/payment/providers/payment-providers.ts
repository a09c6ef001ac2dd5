import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { BankTransferProvider } from './bank-transfer.provider';
import { CashProvider } from './cash.provider';
import { PaymentProvider } from './payment-provider';
import { PaystackProvider } from './paystack.provider';

/**
 * The providers by name, built once from the configuration. Without a
 * Paystack secret key, `paystack` orders are collected offline by the owner,
 * as cash is.
 */
@Injectable()
export class PaymentProviders implements OnModuleDestroy {
  private readonly byName = new Map<string, PaymentProvider>();
  /** The online card provider, when configured. */
  readonly paystack: PaystackProvider | null;

  constructor(@InjectConfig() config: AppConfig) {
    this.paystack = config.paystack ? new PaystackProvider(config.paystack) : null;
    // Without a key, a card order is settled with the owner as cash is.
    const offlinePaystack = new CashProvider('paystack');
    for (const provider of [
      new CashProvider(),
      new BankTransferProvider(),
      this.paystack ?? offlinePaystack,
    ]) {
      this.byName.set(provider.name, provider);
    }
  }

  onModuleDestroy(): void {
    this.paystack?.close();
  }

  /** The provider of this name; unknown names are collected offline like cash. */
  get(name: string): PaymentProvider {
    return this.byName.get(name) ?? this.byName.get('cash')!;
  }

  /** The provider of this name when it collects online (configured), else null. */
  online(name: string): PaymentProvider | null {
    const provider = this.byName.get(name);
    return provider && provider.name === name && provider.collect === 'online' ? provider : null;
  }
}

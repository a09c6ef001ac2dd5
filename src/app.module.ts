import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AccountModule } from './account';
import { AuthModule } from './auth/auth.module';
import { ClockModule } from './common/clock.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DiscountModule } from './discount';
import { EntityModule } from './entity';
import { FileModule } from './file';
import { KitchenModule } from './kitchen';
import { HealthModule } from './health/health.module';
import { ErrorFilter } from './http/error.filter';
import { loggerParams } from './http/logging';
import { MetricsModule } from './metrics/metrics.module';
import { NotificationModule } from './notification';
import { OrderModule } from './order';
import { PaceModule } from './pace';
import { PaymentModule } from './payment/payment.module';
import { OutboxModule } from './outbox/outbox.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { ReportModule } from './report';
import { TeamModule } from './team';
import { WebhookModule } from './webhook';
import { MessagingModule } from './messaging';
import { createValidationPipe } from './http/validation';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, extraModules: Type<unknown>[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // The access log itself is the first middleware (installHttpPipeline), so
        // requests refused before routing are logged too; Nest's logger joins it.
        LoggerModule.forRoot({ ...loggerParams(config), useExisting: true }),
        DiscoveryModule,
        ClockModule,
        DatabaseModule,
        AuthModule.forRoot(AccountModule),
        OutboxModule,
        RateLimitModule,
        HealthModule,
        MetricsModule,
        AccountModule,
        TeamModule,
        EntityModule,
        FileModule,
        NotificationModule,
        DiscountModule,
        OrderModule,
        WebhookModule,
        PaceModule,
        MessagingModule,
        PaymentModule,
        ReportModule,
        KitchenModule,
        ...extraModules,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}

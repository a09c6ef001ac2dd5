import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { openDatabase, OpenDatabase } from './data-source';
import { EventBus } from './event-bus';
import { PgNotifications } from './pg-notifications';

/** The opened store of record (its DataSource and, in embedded mode, the embedded database). */
export const OPEN_DATABASE = Symbol('OPEN_DATABASE');

@Global()
@Module({
  providers: [
    {
      provide: OPEN_DATABASE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => openDatabase(config, { runMigrations: true }),
    },
    {
      provide: DataSource,
      inject: [OPEN_DATABASE],
      useFactory: (db: OpenDatabase) => db.dataSource,
    },
    PgNotifications,
    EventBus,
  ],
  exports: [DataSource, PgNotifications, EventBus, OPEN_DATABASE],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(OPEN_DATABASE) private readonly db: OpenDatabase) {}

  /** Closes the pool and the embedded database, releasing its lock. */
  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
  }
}

import { ModuleMetadata, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock';
import { ClockModule } from '../../src/common/clock.module';
import { AppConfig, loadConfig } from '../../src/config/config';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import { OutboxModule } from '../../src/outbox/outbox.module';
import { RateLimitModule } from '../../src/rate-limit/rate-limit.module';
import { createTestDatabase, TestDatabase } from './database';
import { TEST_API_KEY, TEST_JWT_SECRET } from './test-app';

/**
 * The medium tier: one feature's Nest module (or a few providers) on a real
 * database of its own, migrated as the service migrates it, with the kernel
 * around it (configuration, clock, database, outbox, rate limits) and no
 * HTTP. For repositories, the access policy, state transitions: what an
 * e2e test would only reach through a fully booted app.
 */
export interface MediumContext {
  module: TestingModule;
  config: AppConfig;
  dataSource: DataSource;
  clock: Clock;
  /** A provider of the module under test. */
  get<T>(token: Type<T> | string | symbol): T;
  /** SQL for arranging and checking rows (tests may write SQL; the service may not outside its repositories). */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export async function createMediumContext(
  metadata: Pick<ModuleMetadata, 'imports' | 'providers'> = {},
  env: Record<string, string> = {},
): Promise<MediumContext> {
  const database: TestDatabase = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    API_KEYS: TEST_API_KEY,
    JWT_SECRET: TEST_JWT_SECRET,
    ...database.env,
    ...env,
  });
  let module: TestingModule;
  try {
    module = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        ClockModule,
        DatabaseModule,
        OutboxModule,
        RateLimitModule,
        ...(metadata.imports ?? []),
      ],
      providers: metadata.providers ?? [],
    }).compile();
    module.enableShutdownHooks();
    await module.init();
  } catch (error) {
    await database.drop();
    throw error;
  }
  const dataSource = module.get(DataSource);
  return {
    module,
    config,
    dataSource,
    clock: module.get(Clock),
    get: (token) => module.get(token, { strict: false }),
    sql: (text, params) => dataSource.query(text, params),
    async close() {
      await module.close();
      await database.drop();
    },
  };
}

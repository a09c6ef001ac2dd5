import { Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/config/config';
import { createTestDatabase, TestDatabase } from './database';

export const TEST_API_KEY = 'test-api-key-0123456789abcdef';
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef0123456789';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataSource: DataSource;
  /** http://127.0.0.1:<port> of the listening server. */
  baseUrl: string;
  /** supertest against the listening server. */
  http: TestAgent;
  /** Paths of the three URL spaces for this app's namespace. */
  core: string;
  files: string;
  orders: string;
  close(): Promise<void>;
}

/**
 * The real service, listening on a free port, on a database of its own (a
 * fresh PostgreSQL database or PGlite directory, dropped by close()).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { database?: TestDatabase; extraModules?: Type<unknown>[] } = {},
): Promise<TestApp> {
  const { database } = options;
  const db = database ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    API_KEYS: TEST_API_KEY,
    JWT_SECRET: TEST_JWT_SECRET,
    PORT: '0',
    // The tests stand in for a proxy on loopback: each guest sends its own X-Forwarded-For.
    TRUST_PROXY: 'loopback',
    ...db.env,
    ...env,
  });
  let app: NestExpressApplication;
  try {
    app = await createApp(config, { extraModules: options.extraModules });
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    if (!database) await db.drop();
    throw error;
  }
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const ns = config.namespace;
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    baseUrl,
    http: request(baseUrl),
    core: `/public/api/v1/${ns}`,
    files: `/api/v1/${ns}/file-manager`,
    orders: `/plugins/${ns}/${ns}-init`,
    async close() {
      await app.close();
      if (!database) await db.drop();
    },
  };
}

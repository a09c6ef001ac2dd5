import { join, resolve } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfig } from '../config/config';
import { EmbeddedPostgres } from './embedded/embedded-postgres';
import { ENTITIES } from '../entities';
import { PipelinedClient } from './pipelined-client';

const ROOT = resolve(__dirname, '..', '..');

/** Migrations are compiled apart from src (dist/migrations); tests load the sources. */
export function migrationsGlob(): string {
  return __filename.endsWith('.ts')
    ? join(ROOT, 'migrations', '*.ts')
    : join(ROOT, 'dist', 'migrations', '*.js');
}

export interface OpenDatabase {
  dataSource: DataSource;
  /** The embedded database when there is no DATABASE_URL. */
  embedded: EmbeddedPostgres | undefined;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Run pending migrations before answering (the service does; the drift check too). */
  runMigrations: boolean;
}

/**
 * Opens the store of record: the PostgreSQL server of DATABASE_URL with a
 * normal pool, or the embedded PGlite with exactly one connection.
 */
export async function openDatabase(config: AppConfig, options: OpenOptions): Promise<OpenDatabase> {
  const embedded = config.databaseUrl
    ? undefined
    : new EmbeddedPostgres(config.dataDir, config.embeddedSharedBuffers);
  const common: Pick<
    PostgresConnectionOptions,
    | 'type'
    | 'entities'
    | 'migrations'
    | 'migrationsRun'
    | 'migrationsTransactionMode'
    | 'synchronize'
    | 'logging'
  > = {
    type: 'postgres',
    entities: ENTITIES,
    migrations: [migrationsGlob()],
    migrationsRun: options.runMigrations,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
  };
  let dataSourceOptions: DataSourceOptions;
  if (embedded) {
    const connection = await embedded.start();
    dataSourceOptions = {
      ...common,
      host: connection.host,
      port: connection.port,
      username: connection.user,
      database: connection.database,
      poolSize: 1,
      extra: { connectionTimeoutMillis: 30000, Client: PipelinedClient },
    };
  } else {
    dataSourceOptions = {
      ...common,
      url: config.databaseUrl,
      poolSize: config.databasePoolSize,
      extra: { connectionTimeoutMillis: 10000, Client: PipelinedClient },
    };
  }
  const dataSource = new DataSource(dataSourceOptions);
  try {
    await dataSource.initialize();
    if (dataSource.migrations.length === 0) {
      throw new Error(`No migrations found at ${migrationsGlob()}; was the project built?`);
    }
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
    throw error;
  }
  return {
    dataSource,
    embedded,
    async close() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
    },
  };
}

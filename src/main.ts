// First, so that settings from ./.env are in place before any module reads them.
import './config/load-env-file';
import { Logger } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { createApp } from './app.factory';
import { AppConfig, ConfigError, loadConfig } from './config/config';
import { DataDirLock } from './database/embedded/data-dir-lock';
import { embeddedDatabaseExists } from './database/embedded/embedded-postgres';

function readConfig(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * A second process on a data directory in use is an operator's mistake: the
 * message alone and exit 1, before Nest starts and logs its stack trace. The
 * embedded database takes the lock itself; this only looks.
 */
function refuseDataDirInUse(config: AppConfig): void {
  if (config.databaseUrl) return;
  const refusal = new DataDirLock(config.dataDir).refusal();
  if (refusal) {
    process.stderr.write(`${refusal.message}\n`);
    process.exit(1);
  }
}

/**
 * A parent that started the service with an IPC channel (a process manager,
 * or a test that starts it on PORT=0) hears `{ listening: port }` once it
 * listens. The channel does not keep the process alive.
 */
function tellParent(port: number): void {
  if (!process.send) return;
  process.send({ listening: port });
  process.channel?.unref();
}

async function main(): Promise<void> {
  const config = readConfig();
  refuseDataDirInUse(config);
  const logger = new Logger('Main');
  if (!config.databaseUrl && !embeddedDatabaseExists(config.dataDir)) {
    // Logged before the app exists: its logs are held back until start-up ends.
    logger.log(
      `First start: creating the embedded database in ${config.dataDir} (initdb, a few seconds)`,
    );
  }
  const app = await createApp(config);
  const server = await app.listen(config.port);
  // PORT=0 leaves the port to the system: the bound one is the one to tell.
  const { port } = server.address() as AddressInfo;
  const docsBase =
    config.publicBaseUrl === `http://localhost:${config.port}`
      ? `http://localhost:${port}`
      : config.publicBaseUrl;
  logger.log(`Listening on port ${port}; API docs at ${docsBase}/docs`);
  tellParent(port);
  logger.log(
    config.databaseUrl
      ? 'Database: the PostgreSQL server of DATABASE_URL'
      : `Database: embedded PostgreSQL (PGlite) in ${config.dataDir}; for one machine only`,
  );
  if (config.usingDevelopmentApiKey) {
    logger.warn(
      `No API_KEYS set: development key in use, send it as x-api-key: ${config.apiKeys[0]}`,
    );
  }

  if (config.jwtSecretGenerated) {
    logger.warn(
      `No JWT_SECRET set: signing with the secret kept in ${config.dataDir}; processes that do not share this directory must all set one JWT_SECRET`,
    );
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: finishing in-flight requests`);
    // app.close() stops accepting, lets open requests end, then runs the
    // shutdown hooks (workers, pool, embedded database and its lock).
    const force = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
    force.unref();
    app
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error(error);
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});

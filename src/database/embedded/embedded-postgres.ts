import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DataDirLock } from './data-dir-lock';

const SOCKET_PORT = 5432;

export interface EmbeddedConnection {
  /** Directory of the unix socket, as pg's `host`. */
  host: string;
  port: number;
  user: string;
  database: string;
}

/**
 * The embedded PostgreSQL of DESIGN.md: PGlite in a worker thread, reachable
 * by the ordinary pg driver over a unix socket in the data directory.
 */
export class EmbeddedPostgres {
  private worker: Worker | undefined;
  private readonly lock: DataDirLock;

  constructor(private readonly dataDir: string) {
    this.lock = new DataDirLock(dataDir);
  }

  async start(): Promise<EmbeddedConnection> {
    mkdirSync(this.dataDir, { recursive: true });
    this.lock.acquire();
    try {
      this.worker = spawnWorker({
        dataDir: join(this.dataDir, 'pgdata'),
        socketDir: this.dataDir,
        port: SOCKET_PORT,
      });
      await new Promise<void>((resolve, reject) => {
        const worker = this.worker!;
        const onMessage = (message: { type: string; message?: string }) => {
          if (message.type === 'ready') resolve();
          if (message.type === 'error')
            reject(new Error(`Embedded database failed to start: ${message.message}`));
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
        worker.once('exit', (code) =>
          reject(new Error(`Embedded database worker exited with code ${code}`)),
        );
      });
    } catch (error) {
      await this.stop();
      throw error;
    }
    return { host: this.dataDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
  }

  /** Closes PGlite cleanly (its files flushed) and releases the lock. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 10000);
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        worker.on('message', (message: { type: string }) => {
          if (message.type === 'stopped') void worker.terminate();
        });
        worker.postMessage({ type: 'stop' });
      });
    }
    this.lock.release();
  }
}

function spawnWorker(workerData: object): Worker {
  if (__filename.endsWith('.ts')) {
    // Running from sources (tests): compile the worker on the fly. ts-node is
    // installed as @local/ts-node so that typeorm's optional peer named
    // ts-node does not pull it (and TypeScript) into production installs.
    const file = join(__dirname, 'pglite-worker.ts');
    return new Worker(
      `require('@local/ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } }); require(${JSON.stringify(file)});`,
      { eval: true, workerData },
    );
  }
  return new Worker(join(__dirname, 'pglite-worker.js'), { workerData });
}

/** Whether the data directory already holds an initialised embedded database (else the start runs initdb). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(dataDir, 'pgdata', 'PG_VERSION'));
}

import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { DataDirLock } from './data-dir-lock';

const SOCKET_PORT = 5432;
/** PostgreSQL's buffer pool in the embedded database (its default is 128MB). */
export const DEFAULT_SHARED_BUFFERS = '32MB';
/** Wait before starting a worker again after it died on its own. */
const RESTART_DELAY_MS = 1000;

export interface EmbeddedConnection {
  /** Directory of the unix socket, as pg's `host`. */
  host: string;
  port: number;
  user: string;
  database: string;
}

/**
 * The embedded PostgreSQL: PGlite in a worker thread, reachable by the
 * ordinary pg driver over a unix socket in the data directory.
 *
 * After a crash (`kill -9`) the lock file and the socket file stay behind.
 * The lock names its process: a dead one's lock is taken over, a live one's
 * refuses the start. Once the lock is held no other process can be serving
 * the socket, so a socket file left there is removed before listening.
 * If the worker dies while the service runs, it is started again; requests
 * meanwhile answer 503 and the pool reconnects on its own.
 */
export class EmbeddedPostgres {
  private worker: Worker | undefined;
  private readonly lock: DataDirLock;
  private readonly logger = new Logger('EmbeddedDatabase');
  private running = false;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly sharedBuffers = DEFAULT_SHARED_BUFFERS,
  ) {
    this.lock = new DataDirLock(dataDir);
  }

  get socketPath(): string {
    return join(this.dataDir, `.s.PGSQL.${SOCKET_PORT}`);
  }

  async start(): Promise<EmbeddedConnection> {
    mkdirSync(this.dataDir, { recursive: true });
    this.lock.acquire();
    try {
      const created = !embeddedDatabaseExists(this.dataDir);
      await this.spawn();
      if (created) {
        // Creating the database (initdb) leaves a few hundred megabytes of
        // WebAssembly memory in the worker that serving never uses again; a
        // worker started afresh on the new directory does not carry them.
        await this.stopWorker();
        await this.spawn();
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.running = true;
    return { host: this.dataDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
  }

  /** Closes PGlite cleanly (its files flushed) and releases the lock. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.stopWorker();
    this.lock.release();
  }

  /** Closes PGlite cleanly and ends its worker thread. */
  private async stopWorker(): Promise<void> {
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
  }

  private removeStaleSocket(): void {
    if (!existsSync(this.socketPath)) return;
    this.logger.warn(`Removing the socket file a stopped process left: ${this.socketPath}`);
    unlinkSync(this.socketPath);
  }

  private async spawn(): Promise<void> {
    this.removeStaleSocket();
    const worker = spawnWorker({
      dataDir: join(this.dataDir, 'pgdata'),
      socketDir: this.dataDir,
      port: SOCKET_PORT,
      sharedBuffers: this.sharedBuffers,
    });
    this.worker = worker;
    await new Promise<void>((resolve, reject) => {
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
    worker.once('exit', (code) => {
      if (this.worker !== worker || !this.running) return;
      this.worker = undefined;
      this.logger.error(`Embedded database worker exited (code ${code}); starting it again`);
      this.restartLater();
    });
  }

  private restartLater(): void {
    this.restartTimer = setTimeout(() => {
      if (!this.running) return;
      this.spawn().catch((error: unknown) => {
        this.logger.error(
          `Embedded database did not start again: ${error instanceof Error ? error.message : String(error)}`,
        );
        this.worker = undefined;
        this.restartLater();
      });
    }, RESTART_DELAY_MS);
    this.restartTimer.unref();
  }
}

function spawnWorker(workerData: object): Worker {
  if (__filename.endsWith('.ts')) {
    return new Worker(workerFromSources(join(__dirname, 'pglite-worker.ts')), {
      eval: true,
      workerData,
    });
  }
  return new Worker(join(__dirname, 'pglite-worker.js'), { workerData });
}

/**
 * Running from sources (tests): the worker's TypeScript transpiled to
 * CommonJS, kept in the temp directory under a digest of its text so that
 * each start does not load a compiler into the new thread (~0.4 s a start).
 * TypeScript is a development dependency, loaded only here; a production
 * start runs the built JavaScript above.
 */
function workerFromSources(file: string): string {
  const source = readFileSync(file, 'utf8');
  // The output's module and target are part of the digest, so a change to them makes a new file.
  const output = { module: 'CommonJS', target: 'ES2022' } as const;
  const digest = createHash('sha256')
    .update(JSON.stringify(output))
    .update(source)
    .digest('hex')
    .slice(0, 16);
  const cached = join(tmpdir(), `pglite-worker-${digest}.js`);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const code = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind[output.module],
      target: ts.ScriptTarget[output.target],
    },
    fileName: file,
  }).outputText;
  // Written whole under another name first: a run beside this one never reads half a file.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, code);
  renameSync(partial, cached);
  return code;
}

/** Whether the data directory already holds an initialised embedded database (else the start runs initdb). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(dataDir, 'pgdata', 'PG_VERSION'));
}

import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { buildService } from './service-build';
import { TEST_API_KEY, TEST_JWT_SECRET } from './test-app';

const ROOT = resolve(__dirname, '..', '..');

export interface ChildService {
  process: ChildProcess;
  /** The address it listens on; known once `ready()` has resolved. */
  readonly baseUrl: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal) once it ended. */
  exited: Promise<number | string>;
  /** Resolves once /health/ready answers 200; rejects if it exits first. */
  ready(): Promise<void>;
  /** SIGKILL (a crash) or SIGTERM (a stop), and wait for the end. */
  kill(signal: NodeJS.Signals): Promise<number | string>;
}

/**
 * The service as its own process, started the way `npm start` runs the
 * build (`node dist/main.js`, here of the tests' build of the current
 * sources, see service-build.ts), so a test can crash it with SIGKILL.
 * `env` is the whole configuration besides keys and port.
 *
 * It listens on PORT=0 and tells its port over the IPC channel once bound:
 * a port chosen here and given back could be taken by another test's
 * server before the child binds it, and its readiness check answered by
 * that server.
 */
export async function startChildService(env: Record<string, string>): Promise<ChildService> {
  const child = spawn(process.execPath, [join(buildService(), 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      API_KEYS: TEST_API_KEY,
      JWT_SECRET: TEST_JWT_SECRET,
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const listening = new Promise<number>((done, fail) => {
    child.on('message', (message: { listening?: unknown }) => {
      if (typeof message?.listening !== 'number') return;
      // The port was all the channel was for: closed, it holds neither process.
      child.disconnect();
      done(message.listening);
    });
    void exited.then(() => fail(new Error(`The service exited before it was ready:\n${output}`)));
  });
  // Not awaited until ready(): a child that exits first must not leave it unhandled.
  listening.catch(() => undefined);
  let baseUrl: string | undefined;
  return {
    process: child,
    get baseUrl() {
      if (!baseUrl) throw new Error('The service is not listening yet: await ready() first');
      return baseUrl;
    },
    output: () => output,
    exited,
    async ready() {
      baseUrl = `http://127.0.0.1:${await listening}`;
      for (;;) {
        if (ended) throw new Error(`The service exited before it was ready:\n${output}`);
        try {
          const res = await fetch(`${baseUrl}/health/ready`);
          if (res.status === 200) return;
        } catch {
          // Not ready yet.
        }
        await new Promise((done) => setTimeout(done, 200));
      }
    },
    async kill(signal) {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}

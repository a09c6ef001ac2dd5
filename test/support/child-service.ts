import { ChildProcess, spawn } from 'node:child_process';
import { AddressInfo, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { buildService } from './service-build';
import { TEST_API_KEY, TEST_JWT_SECRET } from './test-app';

const ROOT = resolve(__dirname, '..', '..');

/** A free TCP port on loopback (taken, then given back). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

export interface ChildService {
  process: ChildProcess;
  baseUrl: string;
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
 */
export async function startChildService(env: Record<string, string>): Promise<ChildService> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(buildService(), 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      API_KEYS: TEST_API_KEY,
      JWT_SECRET: TEST_JWT_SECRET,
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    process: child,
    baseUrl,
    output: () => output,
    exited,
    async ready() {
      for (;;) {
        if (ended) throw new Error(`The service exited before it was ready:\n${output}`);
        try {
          const res = await fetch(`${baseUrl}/health/ready`);
          if (res.status === 200) return;
        } catch {
          // Not listening yet.
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

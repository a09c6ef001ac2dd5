import { ChildProcess, fork, ForkOptions, spawn, SpawnOptions } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import * as ts from 'typescript';

/** Every child this run started; all of them are stopped on the way out, whatever happens. */
const children = new Set<ChildProcess>();

const KILL_GRACE_MS = 5000;

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  return track(spawn(command, args, options));
}

/** A TypeScript child of the harness (the load generator), run through ts-node. */
export function forkTypeScript(script: string, options: ForkOptions = {}): ChildProcess {
  return track(
    fork(join(__dirname, script), [], {
      execArgv: ['-r', '@local/ts-node/register/transpile-only'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      ...options,
    }),
  );
}

/**
 * A TypeScript child compiled to plain JavaScript in `outDir` first and run
 * by bare node, so that its memory and CPU are its own and not also those of
 * the TypeScript compiler (the ceiling's VmHWM is compared with the service's).
 * The bench files it imports ('./x') are compiled beside it.
 */
export function forkCompiled(
  script: string,
  outDir: string,
  options: ForkOptions = {},
): ChildProcess {
  const file = compileWithLocalImports(script, outDir);
  const root = join(__dirname, '..');
  return track(
    fork(file, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      ...options,
      env: { ...(options.env ?? process.env), NODE_PATH: join(root, 'node_modules') },
    }),
  );
}

/** Transpiles bench/`script` and, in turn, the bench files it imports; answers the entry's path. */
function compileWithLocalImports(script: string, outDir: string): string {
  const pending = [script];
  const done = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (done.has(name)) continue;
    done.add(name);
    const source = readFileSync(join(__dirname, name), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
    });
    writeFileSync(join(outDir, name.replace(/\.ts$/, '.js')), outputText);
    for (const { fileName } of ts.preProcessFile(source).importedFiles) {
      if (fileName.startsWith('./')) pending.push(`${fileName.slice(2)}.ts`);
    }
  }
  return join(outDir, script.replace(/\.ts$/, '.js'));
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL when it has not exited after a grace period. */
export async function stopChild(child: ChildProcess, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!alive(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs));
  if ((await Promise.race([exited, timer])) === 'late' && alive(child)) {
    child.kill('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
  }
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}

/** Last resort when the harness itself exits: nothing it started may outlive it. */
export function killAllChildrenNow(): void {
  for (const child of children) if (alive(child)) child.kill('SIGKILL');
}

/** A port nobody listens on at the moment, on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `url` until it answers 200, the child exits, or the deadline passes.
 * Returns the milliseconds from `startedAt` (performance.now()) to the first 200.
 */
export async function waitForOk(
  url: string,
  child: ChildProcess,
  startedAt: number,
  deadlineMs: number,
): Promise<number> {
  const deadline = startedAt + deadlineMs;
  while (performance.now() < deadline) {
    if (!alive(child)) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - startedAt;
    } catch {
      // Not listening yet.
    }
    await sleep(20);
  }
  throw new Error(`${url} did not answer 200 within ${deadlineMs} ms`);
}

/** VmHWM (peak resident set) of a process in MiB, from /proc; null where /proc is missing. */
export function peakRssMiB(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

/** Resolves on the child's first IPC message (it says it is listening). */
export function waitForMessage(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`child ${child.pid} sent nothing within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = () => {
      clearTimeout(timer);
      resolve();
    };
    child.once('message', onMessage);
  });
}

/** One IPC request to a forked child and its one answer, bounded in time. */
export function ask<T>(child: ChildProcess, message: unknown, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no answer from child ${child.pid} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (answer: { error?: string } & T) => {
      cleanup();
      if (answer && typeof answer === 'object' && 'error' in answer && answer.error) {
        reject(new Error(answer.error));
      } else {
        resolve(answer);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`child ${child.pid} exited (code ${code}) before answering`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message as object);
  });
}

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import NodeEnvironment from 'jest-environment-node';

/**
 * PGlite's WebAssembly, compiled once per test worker and kept alive for the
 * worker's whole life (this module is loaded once per worker, not once per
 * test file). On the embedded database every test file starts PGlite in a
 * thread of its own; while a compiled module of the same bytes is alive in the
 * process, V8 hands the thread that code instead of compiling it again, which
 * costs each start about 0.7 s of CPU.
 */
let compiled: Promise<object> | undefined;

/** Node's WebAssembly global (the project compiles against ES2023 and Node's types, which leave it out). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Buffer): Promise<object> } })
  .WebAssembly;

function embedded(): boolean {
  return !(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
}

/** Jest's node environment, with PGlite compiled once per worker on the embedded database. */
export default class TestEnvironment extends NodeEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    if (embedded()) {
      const file = join(dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm');
      compiled ??= wasm.compile(readFileSync(file));
    }
  }

  override async setup(): Promise<void> {
    await super.setup();
    await compiled;
  }
}

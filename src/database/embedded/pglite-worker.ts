/**
 * Runs PGlite and its socket server off the HTTP event loop, so that a slow
 * query does not stall requests. Talks to the parent with three messages:
 * ready {socketDir, port}, error {message}, stopped.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

interface WorkerInput {
  dataDir: string;
  socketDir: string;
  port: number;
  /** PostgreSQL's shared_buffers, e.g. "32MB". */
  sharedBuffers: string;
}

/** PGlite's own start parameters (single-user mode and its settings), which ours extend. */
const DEFAULT_START_PARAMS = (PGlite as unknown as { defaultStartParams: string[] })
  .defaultStartParams;

async function main(): Promise<void> {
  const { dataDir, socketDir, port, sharedBuffers } = workerData as WorkerInput;
  mkdirSync(dataDir, { recursive: true });
  // The buffer pool lives in this thread's WebAssembly memory, which never
  // shrinks: PostgreSQL's default of 128MB would stay resident for good.
  const db = await PGlite.create({
    dataDir,
    startParams: [...DEFAULT_START_PARAMS, '-c', `shared_buffers=${sharedBuffers}`],
  });
  // One connection only: with more, the socket server mixes sessions.
  const server = new PGLiteSocketServer({
    db,
    path: join(socketDir, `.s.PGSQL.${port}`),
    maxConnections: 1,
  });
  await server.start();
  parentPort!.on('message', (message: { type: string }) => {
    if (message.type !== 'stop') return;
    void (async () => {
      try {
        await server.stop();
        await db.close();
      } finally {
        parentPort!.postMessage({ type: 'stopped' });
      }
    })();
  });
  parentPort!.postMessage({ type: 'ready' });
}

main().catch((error: unknown) => {
  parentPort!.postMessage({
    type: 'error',
    message: error instanceof Error ? error.message : String(error),
  });
});

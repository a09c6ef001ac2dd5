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
}

async function main(): Promise<void> {
  const { dataDir, socketDir, port } = workerData as WorkerInput;
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
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

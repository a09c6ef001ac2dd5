import { parentPort } from 'node:worker_threads';
import { render, RenderJob } from './render';

/** A job as the service sends it, and the reply it gets (matched by id). */
export interface WorkerRequest {
  id: number;
  job: RenderJob;
}

export type WorkerReply =
  | { id: number; ok: true; body: Uint8Array }
  | { id: number; ok: false; tooLong: 'meta_key' | 'table' }
  | { id: number; error: string };

/*
 * The renderer's thread: QR codes and table sheets are built here, one job
 * at a time, so that their CPU time (a 200-table sheet takes a good part of
 * a second) never holds the service's event loop.
 */
parentPort!.on('message', (request: WorkerRequest) => {
  render(request.job).then(
    (outcome) => {
      if (!outcome.ok) {
        parentPort!.postMessage({ id: request.id, ...outcome } satisfies WorkerReply);
        return;
      }
      // Copied once into a buffer of its own (a small Buffer shares Node's pool), which then
      // moves to the service's thread without another copy.
      const body = new Uint8Array(outcome.body);
      const reply: WorkerReply = { id: request.id, ok: true, body };
      parentPort!.postMessage(reply, [body.buffer]);
    },
    (error: unknown) => {
      const reply: WorkerReply = { id: request.id, error: String(error) };
      parentPort!.postMessage(reply);
    },
  );
});

import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
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
/**
 * Background work: on Linux a thread has a nice value of its own, so this
 * one steps back behind the service's event loop and the database when the
 * CPU is short. Elsewhere it keeps the process's priority.
 */
function lowerPriority(): void {
  try {
    const thread = /task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1];
    if (thread) setPriority(Number(thread), constants.priority.PRIORITY_LOW);
  } catch {
    // Not Linux, or not allowed: the thread runs at the process's priority.
  }
}

lowerPriority();

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

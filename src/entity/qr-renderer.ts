import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../http/api-error';
import { RenderJob, RenderOutcome } from './qr-render/render';
import type { WorkerReply, WorkerRequest } from './qr-render/render.worker';

/** A job that takes longer than this is given up and its thread started afresh. */
const JOB_TIMEOUT_MS = 30_000;
/** The renderer's heap: a 200-table sheet needs a few tens of MB at most. */
const WORKER_HEAP_MB = 96;

interface Pending {
  resolve(outcome: RenderOutcome): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

function spawn(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (__filename.endsWith('.ts')) {
    // Running from sources (tests): compile the worker on the fly, as the embedded database does.
    const file = join(__dirname, 'qr-render', 'render.worker.ts');
    return new Worker(
      `require('@local/ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } }); require(${JSON.stringify(file)});`,
      { eval: true, ...options },
    );
  }
  return new Worker(join(__dirname, 'qr-render', 'render.worker.js'), options);
}

function unavailable(): ApiError {
  return ApiError.serviceUnavailable('The QR renderer is not available; try again shortly.');
}

/**
 * Builds QR codes and table sheets on a worker thread of its own, one job
 * after another, so that their CPU time never holds the event loop that
 * answers every other request. The thread starts with the first job; one
 * that dies or hangs fails the jobs it held (503) and the next job starts
 * a new one.
 */
// R73: costly public answers are bounded.
@Injectable()
export class QrRenderer implements OnModuleDestroy {
  private readonly logger = new Logger('QrRenderer');
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  render(job: RenderJob): Promise<RenderOutcome> {
    const worker = this.running();
    const id = this.nextId++;
    return new Promise<RenderOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.logger.error(
          `A QR job took longer than ${JOB_TIMEOUT_MS} ms; restarting the renderer`,
        );
        this.fail(worker, unavailable());
      }, JOB_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, job } satisfies WorkerRequest);
    });
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    if (worker) this.fail(worker, unavailable());
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = spawn();
    // An idle renderer never keeps the process alive; a job in flight holds its request open.
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.settle(reply));
    worker.on('error', (error) => {
      this.logger.error(`The QR renderer failed: ${String(error)}`);
      this.fail(worker, unavailable());
    });
    worker.on('exit', () => this.fail(worker, unavailable()));
    this.worker = worker;
    return worker;
  }

  private settle(reply: WorkerReply): void {
    const job = this.pending.get(reply.id);
    if (!job) return;
    this.pending.delete(reply.id);
    clearTimeout(job.timer);
    if ('error' in reply) job.reject(new Error(`QR rendering failed: ${reply.error}`));
    else if (reply.ok) job.resolve({ ok: true, body: reply.body });
    else job.resolve({ ok: false, tooLong: reply.tooLong });
  }

  /** Ends the thread and refuses every job it held; the next job starts a new one. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const job of this.pending.values()) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    this.pending.clear();
    void worker.terminate();
  }
}

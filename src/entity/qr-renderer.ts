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
  id: number;
  job: RenderJob;
  resolve(outcome: RenderOutcome): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
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
 * answers every other request; the thread runs at the lowest CPU priority
 * where the system allows it, so on a busy machine the requests come first.
 * Jobs wait their turn here; a job that dies or hangs on the thread (30 s of
 * its own) is refused with 503, and the next one starts a new thread.
 */
// R73: costly public answers are bounded.
@Injectable()
export class QrRenderer implements OnModuleDestroy {
  private readonly logger = new Logger('QrRenderer');
  private worker: Worker | undefined;
  /** Jobs waiting their turn, oldest first. */
  private readonly queue: Pending[] = [];
  /** The job on the thread now: one at a time, so its timeout counts its own time only. */
  private current: Pending | undefined;
  private nextId = 1;

  render(job: RenderJob): Promise<RenderOutcome> {
    return new Promise<RenderOutcome>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.dispatch();
    });
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    if (worker) this.fail(worker, unavailable());
    for (const job of this.queue.splice(0)) job.reject(unavailable());
  }

  private dispatch(): void {
    if (this.current || this.queue.length === 0) return;
    const worker = this.running();
    const job = this.queue.shift()!;
    job.timer = setTimeout(() => {
      this.logger.error(`A QR job took longer than ${JOB_TIMEOUT_MS} ms; restarting the renderer`);
      this.fail(worker, unavailable());
    }, JOB_TIMEOUT_MS);
    this.current = job;
    worker.postMessage({ id: job.id, job: job.job } satisfies WorkerRequest);
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
    const job = this.current;
    if (!job || job.id !== reply.id) return;
    this.current = undefined;
    clearTimeout(job.timer);
    if ('error' in reply) job.reject(new Error(`QR rendering failed: ${reply.error}`));
    else if (reply.ok) job.resolve({ ok: true, body: reply.body });
    else job.resolve({ ok: false, tooLong: reply.tooLong });
    this.dispatch();
  }

  /**
   * Ends the thread and refuses the job it held; the jobs still waiting go
   * to a new thread.
   */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const job = this.current;
    this.current = undefined;
    if (job) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    void worker.terminate();
    setImmediate(() => this.dispatch());
  }
}

import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OnModuleDestroy } from '@nestjs/common';
import { ErrorCode, ServiceError } from '@app/contracts';
import { RETRY_AFTER_SECONDS } from '../http/error-status';
import type { ApplicationSummary } from './summary-pdf';
import type { SummaryPdfAnswer } from './summary-pdf.worker';

/**
 * How many summaries are laid out at once (a worker thread each), how many more may wait for one,
 * and how long a worker is kept with nothing to do.
 */
export interface SummaryPdfCapacity {
  workers: number;
  waiting: number;
  idleMs?: number;
}

/**
 * A worker keeps the heap a maximal summary grew (tens of MB beside the gateway's own) until it
 * stops: one idle this long is stopped, and the next summary waits for another to start.
 */
const IDLE_MS = 30_000;

/** What a worker thread runs: its script, and the node options it runs with (the gateway's own unless given). */
export interface WorkerScript {
  filename: string | URL;
  execArgv?: string[];
}

/** The worker's script as `nest build gateway` writes it, beside this file's. */
export const SUMMARY_PDF_WORKER: WorkerScript = { filename: join(__dirname, 'summary-pdf.worker.js') };

export const SUMMARY_PDF_BUSY_MESSAGE = `too many summary PDFs are being made at once: retry after ${RETRY_AFTER_SECONDS} seconds`;

interface Job {
  summary: ApplicationSummary;
  resolve(pdf: Buffer): void;
  reject(error: unknown): void;
}

/** A worker thread, started on the first summary it is given, and the summary it is laying out. */
interface Slot {
  worker: Worker | null;
  job: Job | null;
  /** Stops the worker once it has been idle for `idleMs`. */
  idle?: NodeJS.Timeout;
}

/**
 * Lays out summary PDFs on worker threads, off the event loop that serves every other request: a
 * maximal application (20 applicants, every section, long disclosures) takes over a second of CPU.
 * `workers` at a time, `waiting` more under way (their data being read, or read and waiting for a
 * worker); beyond that a summary is refused at once with a 503 and Retry-After, before anything
 * is read for it, so that a burst of them neither queues without end nor holds their data and
 * PDFs in memory, nor records reads of applicants' sensitive data for PDFs never made.
 */
export class SummaryPdfRenderer implements OnModuleDestroy {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  /** Summaries under way: being read, waiting for a worker or being laid out. */
  private underWay = 0;
  private stopped = false;

  constructor(
    private readonly capacity: SummaryPdfCapacity,
    private readonly script: WorkerScript = SUMMARY_PDF_WORKER,
  ) {
    this.slots = Array.from({ length: capacity.workers }, () => ({ worker: null, job: null }));
  }

  /**
   * The summary `read` gives, as a PDF. Refused with SERVICE_UNAVAILABLE (503) before `read` is
   * called when as many summaries as the workers and their line hold are under way.
   */
  async render(read: () => Promise<ApplicationSummary>): Promise<Buffer> {
    if (this.stopped || this.underWay >= this.capacity.workers + this.capacity.waiting) {
      throw new ServiceError(ErrorCode.SERVICE_UNAVAILABLE, SUMMARY_PDF_BUSY_MESSAGE);
    }
    this.underWay++;
    try {
      const summary = await read();
      return await new Promise<Buffer>((resolve, reject) => {
        this.queue.push({ summary, resolve, reject });
        this.dispatch();
      });
    } finally {
      this.underWay--;
    }
  }

  /** The worker threads running now. */
  get workers(): number {
    return this.slots.filter((slot) => slot.worker !== null).length;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const job of this.queue.splice(0)) job.reject(new ServiceError(ErrorCode.SERVICE_UNAVAILABLE, SUMMARY_PDF_BUSY_MESSAGE));
    for (const slot of this.slots) clearTimeout(slot.idle);
    await Promise.all(this.slots.map((slot) => slot.worker?.terminate()));
  }

  /** Gives each free worker the next summary in line; a worker left with none stops once idle for `idleMs`. */
  private dispatch(): void {
    for (const slot of this.slots) {
      while (slot.job === null && this.queue.length > 0) this.post(slot, this.queue.shift()!);
      clearTimeout(slot.idle);
      if (slot.job === null && slot.worker !== null) {
        slot.idle = setTimeout(() => this.stopIdle(slot), this.capacity.idleMs ?? IDLE_MS).unref();
      }
    }
  }

  private post(slot: Slot, job: Job): void {
    slot.worker ??= this.start(slot);
    try {
      slot.worker.postMessage(job.summary);
      slot.job = job;
    } catch (error) {
      // Nothing was sent (a summary that cannot be copied to the thread): the worker is still free.
      job.reject(error);
    }
  }

  private start(slot: Slot): Worker {
    const worker = new Worker(this.script.filename, { execArgv: this.script.execArgv });
    // An idle worker never keeps the gateway from exiting.
    worker.unref();
    worker.on('message', (answer: SummaryPdfAnswer) => this.settle(slot, answer));
    worker.on('error', (error) => this.lose(slot, worker, error));
    worker.on('exit', (code) => this.lose(slot, worker, new Error(`a summary PDF worker exited with code ${code}`)));
    return worker;
  }

  private settle(slot: Slot, answer: SummaryPdfAnswer): void {
    const job = slot.job!;
    slot.job = null;
    if ('pdf' in answer) job.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
    else job.reject(new Error(`laying out a summary PDF failed: ${answer.error}`));
    this.dispatch();
  }

  private stopIdle(slot: Slot): void {
    const worker = slot.worker;
    // Let go of first: its exit is not a loss.
    slot.worker = null;
    void worker?.terminate();
  }

  /** A worker that failed (out of its heap, say) or exited: its summary fails, the next one starts another worker. */
  private lose(slot: Slot, worker: Worker, error: Error): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const job = slot.job;
    slot.job = null;
    job?.reject(error);
    if (!this.stopped) this.dispatch();
  }
}

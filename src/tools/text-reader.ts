import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

/** A line of text read in an image, with its words and their confidences (0–100, tesseract's). */
export interface ReadLine {
  text: string;
  confidence: number;
  words: { text: string; confidence: number }[];
}

export type Reading =
  | { status: 'read'; lines: ReadLine[]; ms: number }
  /** the time budget ran out (waiting for a worker, starting one, or recognising) */
  | { status: 'timeout' }
  /** the worker failed (it is replaced); the image itself was fine */
  | { status: 'failed' };

/**
 * The trained data, from the @tesseract.js-data/eng package: the LSTM model only, in 8-bit
 * integers ("best_int": smaller and faster than the float model, about as accurate), gzipped.
 * It is read from the package's folder: nothing is downloaded, ever.
 */
export function trainedDataFolder(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

interface Job {
  image: Buffer;
  settle: (reading: Reading) => void;
  state: 'queued' | 'running' | 'done';
}

interface Slot {
  /** the worker, once started (or starting); null when there is none (never started, or ended) */
  worker: Promise<Worker> | null;
  job: Job | null;
}

export interface TextReaderOptions {
  workers: number;
  /** how workers are made (tests and the bench may count them); tesseract by default */
  startWorker?: () => Promise<Worker>;
}

/**
 * Text recognition off the event loop: a pool of tesseract.js workers (each a worker thread with
 * its own WebAssembly engine and model), started on the first image and ended by close().
 *
 * A small pool of its own rather than tesseract's scheduler: the scheduler can neither cancel a job
 * nor drop a worker, and a worker that overruns its budget must be ended (recognition cannot be
 * interrupted otherwise) and replaced, or it would hold its slot until it finished.
 *
 * read(image, budgetMs): the budget covers the whole wait. Past it the caller gets 'timeout' and:
 * a queued image is dropped; an image whose worker is still starting is dropped when it is ready
 * (a start is never cut: the next image needs that worker); an image being recognised has its
 * worker terminated, and a new one is started in its slot at once.
 */
export class TextReader {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private closed = false;
  private readonly startWorker: () => Promise<Worker>;

  constructor(options: TextReaderOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({ worker: null, job: null }));
    this.startWorker = options.startWorker ?? startTesseractWorker;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Workers started so far (to check the pool is lazy). */
  get started(): number {
    return this.slots.filter((s) => s.worker !== null).length;
  }

  read(image: Buffer, budgetMs: number): Promise<Reading> {
    if (this.closed) return Promise.resolve({ status: 'failed' });
    return new Promise<Reading>((resolve) => {
      const timer = setTimeout(() => this.expire(job), budgetMs);
      const job: Job = {
        image,
        state: 'queued',
        settle: (reading) => {
          if (job.state === 'done') return;
          job.state = 'done';
          clearTimeout(timer);
          resolve(reading);
        },
      };
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Ends every worker; images still waiting get 'failed'. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.settle({ status: 'failed' });
    const workers = this.slots.map((slot) => {
      const worker = slot.worker;
      slot.worker = null;
      slot.job?.settle({ status: 'failed' });
      return worker;
    });
    await Promise.all(
      workers.map(async (worker) => {
        if (worker) await (await worker.catch(() => null))?.terminate().catch(() => {});
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.closed || !this.queue.length) return;
      if (slot.job) continue;
      const job = this.queue.shift()!;
      void this.run(slot, job);
    }
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    slot.job = job;
    job.state = 'running';
    slot.worker ??= this.startWorker();
    const starting = slot.worker;
    let worker: Worker;
    try {
      worker = await starting;
    } catch {
      // a worker that could not start: the next image tries again with a new one
      if (slot.worker === starting) slot.worker = null;
      job.settle({ status: 'failed' });
      this.release(slot, job);
      return;
    }
    if (isDone(job) || slot.job !== job) {
      // the budget ran out while the worker started: it is kept, the image is dropped
      this.release(slot, job);
      return;
    }
    const began = performance.now();
    try {
      // rotateAuto: tesseract straightens a skewed image (a label photographed askew) before reading
      const result = await worker.recognize(job.image, { rotateAuto: true }, { text: true, blocks: true });
      job.settle({ status: 'read', lines: linesOf(result.data.blocks), ms: performance.now() - began });
    } catch {
      if (slot.job === job) this.replace(slot);
      job.settle({ status: 'failed' });
    }
    this.release(slot, job);
  }

  private release(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    slot.job = null;
    this.dispatch();
  }

  private expire(job: Job): void {
    if (job.state === 'queued') {
      this.queue.splice(this.queue.indexOf(job), 1);
    } else if (job.state === 'running') {
      const slot = this.slots.find((s) => s.job === job);
      // recognising (not starting): the worker is ended, its slot gets a new one
      if (slot) void this.stopIfRecognising(slot, job);
    }
    job.settle({ status: 'timeout' });
  }

  private async stopIfRecognising(slot: Slot, job: Job): Promise<void> {
    const worker = slot.worker;
    if (!worker || !(await isSettled(worker)) || slot.job !== job) return;
    this.replace(slot);
    slot.job = null;
    this.dispatch();
  }

  /** Terminates the slot's worker (whatever it is doing) and starts another in its place. */
  private replace(slot: Slot): void {
    const old = slot.worker;
    slot.worker = this.closed ? null : this.startWorker();
    // a failed start is seen (and retried) by the next image
    slot.worker?.catch(() => {});
    void old?.then((w) => w.terminate()).catch(() => {});
  }
}

/** Whether the job was answered (a check after an await: the timer may have answered it meanwhile). */
const isDone = (job: Job) => job.state === 'done';

/** Whether a promise has already settled (without waiting for it). */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  const first = await Promise.race([promise.catch(() => null), Promise.resolve(pending)]);
  return first !== pending;
}

async function startTesseractWorker(): Promise<Worker> {
  const folder = trainedDataFolder();
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: folder,
    cachePath: folder,
    // read from the folder, never written back nor looked for in a cache
    cacheMethod: 'none',
    gzip: true,
    logger: () => {},
    errorHandler: () => {},
  });
  await worker.setParameters({
    // labels: scattered blocks of text, not a page of prose
    tessedit_pageseg_mode: PSM.SPARSE_TEXT,
    // the prepared images are scaled for text; without it tesseract guesses (and warns)
    user_defined_dpi: '300',
    // tesseract's own messages ("Detected 175 diacritics") would land in stdout, among the log lines
    debug_file: '/dev/null',
  });
  return worker;
}

interface BlockLike {
  paragraphs: {
    lines: { text: string; confidence: number; words: { text: string; confidence: number }[] }[];
  }[];
}

function linesOf(blocks: BlockLike[] | null): ReadLine[] {
  const lines: ReadLine[] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const text = line.text.trim();
        if (!text) continue;
        lines.push({
          text,
          confidence: line.confidence,
          words: line.words.map((w) => ({ text: w.text, confidence: w.confidence })),
        });
      }
    }
  }
  return lines;
}

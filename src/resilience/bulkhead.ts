/** A call refused because its lane is full and its queue too, or the wait for a place ran out. */
export class BulkheadFullError extends Error {
  constructor(readonly lane: string) {
    super(`${lane}: no place within the wait`);
    this.name = 'BulkheadFullError';
  }
}

export interface BulkheadSettings {
  /** calls running at once */
  maxConcurrent: number;
  /** calls waiting for a place at most; beyond them a call is refused at once */
  maxQueued: number;
  /** how long a call waits for a place before it is refused */
  queueTimeoutMs: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Bounded work in flight for one lane of calls to a dependency: at most `maxConcurrent` run at
 * once, a few more wait a short while for a place, the rest are refused at once (BulkheadFullError)
 * rather than piling up connections and memory behind a slow dependency.
 */
export class Bulkhead {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly lane: string,
    private readonly settings: BulkheadSettings,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  /** every place taken: a call now would wait (or be refused) */
  get full(): boolean {
    return this.running >= this.settings.maxConcurrent;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await call();
    } finally {
      this.leave();
    }
  }

  private enter(): Promise<void> {
    if (this.running < this.settings.maxConcurrent) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.settings.maxQueued)
      return Promise.reject(new BulkheadFullError(this.lane));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new BulkheadFullError(this.lane));
        }, this.settings.queueTimeoutMs),
      };
      this.waiting.push(waiter);
    });
  }

  /**
   * Refuses every call waiting for a place, now, with `error`: when the dependency is known to be
   * away (its breaker just opened), a waiter would only be refused at the end of its wait.
   */
  turnAway(error: Error): void {
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }

  /** A place freed goes to the longest waiter (it keeps the count), or is given back. */
  private leave(): void {
    const next = this.waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
    } else this.running -= 1;
  }
}

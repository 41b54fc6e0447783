/**
 * Work that must run one batch at a time per lane (here: charges of one account and key, which
 * queue on the same database rows anyway). The first item of an idle lane is sent at once; items
 * that arrive while a batch is in flight wait and go together in the next one, so a busy lane makes
 * one round trip per batch instead of one per item and an idle lane adds no delay.
 */
export class BatchLanes<T, R> {
  private readonly lanes = new Map<string, Waiting<T, R>[]>();

  /**
   * @param send writes one batch and answers one result per item, in order; if it throws, every
   *   item of that batch fails with the error. A result may be a promise of it: its item waits for
   *   it, the lane does not (an item handed on to be written elsewhere).
   * @param maxBatch the most items sent in one batch
   */
  constructor(
    private readonly send: (lane: string, items: T[]) => Promise<(R | Promise<R>)[]>,
    private readonly maxBatch = 100,
  ) {}

  /** Whether the lane has a batch in flight (or items waiting for one). */
  busy(lane: string): boolean {
    return this.lanes.has(lane);
  }

  submit(lane: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const waiting = this.lanes.get(lane);
      if (waiting) {
        waiting.push({ item, resolve, reject });
        return;
      }
      // No batch in flight: this item opens the lane and is sent now.
      this.lanes.set(lane, []);
      void this.drain(lane, [{ item, resolve, reject }]);
    });
  }

  private async drain(lane: string, first: Waiting<T, R>[]): Promise<void> {
    let batch = first;
    while (batch.length > 0) {
      try {
        const results = await this.send(
          lane,
          batch.map((w) => w.item),
        );
        if (results.length !== batch.length) {
          throw new Error(`batch of ${batch.length} answered with ${results.length} results`);
        }
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
      batch = this.lanes.get(lane)!.splice(0, this.maxBatch);
    }
    this.lanes.delete(lane);
  }
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R | Promise<R>) => void;
  reject: (error: unknown) => void;
}

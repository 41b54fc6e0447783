import { LRUCache } from 'lru-cache';

/**
 * Computations kept as promises for a while: concurrent identical requests share one, and one that
 * fails is forgotten (only while it is still the entry: a newer one is never dropped for it), so the
 * next request computes again. The engines keep their statistics, known queries and lists in it.
 */
export class PromiseCache<T extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, Promise<T>>;

  /** `maxEntries` each of about `entrySize` (the default 1) within `maxSize` when given */
  constructor(options: { ttlMs: number; maxEntries?: number; maxSize?: number; entrySize?: number }) {
    this.entries = new LRUCache<string, Promise<T>>({
      ttl: options.ttlMs,
      ...(options.maxSize !== undefined
        ? { maxSize: options.maxSize, sizeCalculation: () => options.entrySize ?? 1 }
        : { max: options.maxEntries ?? 1_000 }),
    });
  }

  get(key: string): Promise<T> | undefined {
    return this.entries.get(key);
  }

  /** The entry of `key`, or `compute()` made the entry. */
  getOrCompute(key: string, compute: () => Promise<T>): Promise<T> {
    return this.entries.get(key) ?? this.set(key, compute());
  }

  /**
   * `computed` as the entry of `key`, forgotten if it fails; once it resolves, `sizeOf` (when given)
   * counts it at its size without restarting its time to live.
   */
  set(key: string, computed: Promise<T>, sizeOf?: (value: T) => number): Promise<T> {
    this.entries.set(key, computed);
    computed.then(
      (value) => {
        // lru-cache counts a size again only for a new value: the same, resolved, in a new promise
        if (sizeOf && this.entries.peek(key) === computed) {
          this.entries.set(key, Promise.resolve(value), { size: sizeOf(value), noUpdateTTL: true });
        }
      },
      () => {
        if (this.entries.peek(key) === computed) this.entries.delete(key);
      },
    );
    return computed;
  }
}

/** A cache, or none when `ttlMs` is 0 (every request computes). */
export const promiseCache = <T extends NonNullable<unknown>>(
  ttlMs: number,
  options: { maxEntries?: number; maxSize?: number; entrySize?: number } = {},
): PromiseCache<T> | null => (ttlMs > 0 ? new PromiseCache<T>({ ttlMs, ...options }) : null);

import type { LRUCache } from 'lru-cache';

/**
 * The cached promise for key, or a new computation put in the cache: concurrent identical requests
 * share one query, and a failed one is forgotten so the next request retries.
 */
export function shared<T>(
  cache: LRUCache<string, Promise<T>> | null,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  if (!cache) return compute();
  let pending = cache.get(key);
  if (!pending) {
    pending = compute();
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

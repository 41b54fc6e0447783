import { LRUCache } from 'lru-cache';

/**
 * How long a static catalog page is reused in the process. Clients and proxies are already told
 * to keep these answers an hour (Cache-Control), so a minute here changes nothing they can see;
 * an import (`npm run catalog:import`, another process) shows within that minute.
 */
const TTL_MS = 60_000;
/** Bounds the memory: keys include the free-text `q`, so clients can make them up. */
const MAX_PAGES = 2_000;

export type CatalogCache = <T>(key: string, compute: () => Promise<T> | T) => Promise<T>;

/**
 * A per-app cache of catalog pages: concurrent identical requests share one query, and a failed
 * one (a 404, a database error) is forgotten at once so the next request asks again.
 */
export function createCatalogCache(): CatalogCache {
  const pages = new LRUCache<string, Promise<unknown>>({ max: MAX_PAGES, ttl: TTL_MS });
  return <T>(key: string, compute: () => Promise<T> | T): Promise<T> => {
    let pending = pages.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = Promise.resolve().then(compute);
      pages.set(key, pending);
      pending.catch(() => pages.delete(key));
    }
    return pending;
  };
}

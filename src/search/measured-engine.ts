import type { Histogram } from 'prom-client';
import type { SearchEngine } from './engine.js';

/**
 * The engine with each query timed into `histogram` (labels engine, kind, outcome), wrapped from
 * outside so the engines themselves know nothing of metrics.
 */
export function measuredEngine(
  engine: SearchEngine,
  histogram: Histogram<'engine' | 'kind' | 'outcome'>,
): SearchEngine {
  const timed = async <T>(kind: 'search' | 'stats' | 'facets', call: () => Promise<T>): Promise<T> => {
    const end = histogram.startTimer({ engine: engine.name, kind });
    try {
      const result = await call();
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      end({ outcome: 'error' });
      throw error;
    }
  };
  return {
    name: engine.name,
    search: (query, page) => timed('search', () => engine.search(query, page)),
    pageAfter: (query, page) => timed('search', () => engine.pageAfter(query, page)),
    stats: (query) => timed('stats', () => engine.stats(query)),
    facets: (request) => timed('facets', () => engine.facets(request)),
    ping: () => engine.ping(),
    ...(engine.close ? { close: () => engine.close!() } : {}),
  };
}

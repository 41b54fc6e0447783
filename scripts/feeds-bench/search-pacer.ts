import { percentile } from '../bench-support.js';

export interface PacedSearches {
  /** stops sending, waits for the searches in flight; their latencies in ms and the failures */
  stop(): Promise<{ p50: number; p99: number; count: number; failed: number }>;
}

/**
 * Searches by reference at a steady rate (open loop: one every 1/rate s whatever the answers
 * take), as the searchers of a live service keep arriving while a seller's feed loads. The same
 * rate idle and under load, so the two p99s compare.
 */
export function paceSearches(
  apiUrl: string,
  apiKey: string,
  references: string[],
  perSecond: number,
): PacedSearches {
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  let failed = 0;
  let next = 0;
  const search = async () => {
    const reference = references[next++ % references.length]!;
    const started = performance.now();
    try {
      const answer = await fetch(`${apiUrl}/data/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ reference }),
      });
      await answer.arrayBuffer();
      if (answer.ok) latencies.push(performance.now() - started);
      else failed++;
    } catch {
      failed++;
    }
  };
  const timer = setInterval(() => {
    const request = search().finally(() => inFlight.delete(request));
    inFlight.add(request);
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return {
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        count: latencies.length,
        failed,
      };
    },
  };
}

/**
 * Concurrent search traffic for fault tests: `connections` callers send searches back to back until
 * `stop()` is called, and everything the clients were told is tallied, so that afterwards the test
 * can hold the database to it (credits debited = credits the responses said were spent).
 */
export interface LoadTally {
  statuses: Map<number, number>;
  /** sum of credits_spent over the 200 responses */
  creditsSpent: number;
  /** requests that got no HTTP answer at all (connection refused or reset) */
  transportErrors: number;
  /** the code of each 5xx body seen, with how often */
  errorCodes: Map<string, number>;
}

export interface SearchLoad {
  tally: LoadTally;
  /** stop sending and wait for the requests in flight */
  stop(): Promise<LoadTally>;
}

export interface SearchLoadOptions {
  url: string;
  /** request headers (credentials); one set per caller, used in turn */
  credentials: Record<string, string>[];
  /** the body of request n */
  body: (n: number) => unknown;
  connections?: number;
  path?: string;
  /** each caller waits this long after every answer (a long fault would otherwise be a flood of fast 503s) */
  pauseMs?: number;
}

export function startSearchLoad(options: SearchLoadOptions): SearchLoad {
  const tally: LoadTally = {
    statuses: new Map(),
    creditsSpent: 0,
    transportErrors: 0,
    errorCodes: new Map(),
  };
  const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  let running = true;
  let n = 0;
  const caller = async () => {
    while (running) {
      const i = n++;
      try {
        const response = await fetch(options.url + (options.path ?? '/data/search'), {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...options.credentials[i % options.credentials.length],
          },
          body: JSON.stringify(options.body(i)),
        });
        const body = (await response.json()) as { credits_spent?: number; code?: string };
        count(tally.statuses, response.status);
        if (response.status === 200) tally.creditsSpent += body.credits_spent ?? 0;
        if (response.status >= 500) count(tally.errorCodes, body.code ?? '?');
        if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
      } catch {
        tally.transportErrors += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const callers = Array.from({ length: options.connections ?? 16 }, caller);
  return {
    tally,
    async stop() {
      running = false;
      await Promise.all(callers);
      return tally;
    },
  };
}

/** The tally of what the callers were told while `during` ran; the load stops after it, whatever it did. */
export async function searchesDuring(
  options: SearchLoadOptions,
  during: () => Promise<void>,
): Promise<LoadTally> {
  const load = startSearchLoad(options);
  try {
    await during();
  } finally {
    await load.stop();
  }
  return load.tally;
}

/**
 * The one way tests wait for something asynchronous (pub/sub, an indexer, a background refresh, a
 * process coming back): poll until it holds, with a deadline generous enough for a loaded machine.
 * Polling stops as soon as the condition holds, so a generous deadline costs nothing when all is well;
 * a test never asserts how long anything took.
 */
export const DEFAULT_DEADLINE_MS = 30_000;
const INTERVAL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeValue(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(value);
  }
}

/**
 * Reads `read` until `accept` holds for what it gave, and returns that value. A read that throws
 * counts as "not yet". Past the deadline, fails naming `what` and the last value or error seen.
 */
export async function waitFor<T>(
  what: string,
  read: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = DEFAULT_DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: string;
    try {
      const value = await read();
      if (accept(value)) return value;
      last = `last value: ${describeValue(value)}`;
    } catch (error) {
      last = `last error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${last})`);
    }
    await sleep(INTERVAL_MS);
  }
}

/** Polls `check` until it returns true; past the deadline, fails naming `what`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = DEFAULT_DEADLINE_MS,
): Promise<void> {
  await waitFor(what, check, (held) => held, timeoutMs);
}

import { createHash } from 'node:crypto';

/**
 * The recorded answers with what changes from run to run made stable, so that running the script
 * again rewrites the same file unless an answer really changed:
 *
 * - the service's clock stands still during the run: a time it computes (a token's expiry 10
 *   minutes on, a session's 30 days on, a rate window's reset) is moved to the same distance from
 *   a fixed "now", and a time the database stamped during the run (a row's created_at) to that
 *   "now" itself;
 * - durations measured by the service (`ms` of a readiness check) read 1: they are never twice alike;
 * - secrets and signed values (API keys, session tokens, search tokens, payment references)
 *   become look-alikes of the same length and alphabet, the same one wherever a value
 *   recurs, and a key's listed prefix the look-alike's prefix. Examples never carry a real secret.
 */

/** When the examples' clock reads "now". */
export const EXAMPLE_NOW = Date.parse('2026-03-02T10:00:00.000Z');

/** How far from the run a time is still taken to be the run's (sessions last 30 days). */
const NEAR_MS = 40 * 24 * 3600_000;

/** Secrets are at least this long (a key, a token, a `pay_` reference): shorter values are kept. */
const MIN_SECRET_LENGTH = 16;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const HEX = '0123456789abcdef';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A value of the same length and shape as `secret` (its `psk_`-like head, its dots and a UUID's
 * dashes where they were), drawn from `seed` alone: the same on every run, whatever the secret.
 */
function lookAlike(secret: string, seed: number): string {
  const head = /^[a-z]{2,4}_/.exec(secret)?.[0] ?? '';
  const body = secret.slice(head.length);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(body);
  const alphabet = uuid ? HEX : ALPHANUMERIC;
  let bytes = Buffer.alloc(0);
  for (let round = 0; bytes.length < body.length; round++) {
    bytes = Buffer.concat([bytes, createHash('sha256').update(`openapi-example-${seed}-${round}`).digest()]);
  }
  const kept = (c: string) => c === '.' || (uuid && c === '-');
  return head + [...body].map((c, i) => (kept(c) ? c : alphabet[bytes[i]! % alphabet.length])).join('');
}

export class Scrubber {
  private readonly secrets = new Map<string, string>();

  /** @param clockStart where the service's clock stands (on a whole second) while the flow runs */
  constructor(private readonly clockStart: number) {}

  /** A value the examples must not show as it was (a key, a token, a signed reference). */
  secret(value: string | null | undefined): void {
    // short values (an id of a fresh database: "1") are the same every run, and too common to replace
    if (!value || value.length < MIN_SECRET_LENGTH || this.secrets.has(value)) return;
    this.secrets.set(value, lookAlike(value, this.secrets.size + 1));
  }

  /** `examples` with the run's times and the secrets replaced. */
  scrub<T>(examples: T): T {
    let text = JSON.stringify(examples, (key, value: unknown) => {
      if (typeof value === 'string' && DATE_TIME.test(value)) return this.time(value);
      if (key === 'ms' && typeof value === 'number') return 1;
      return value;
    });
    // longest first, so that a secret containing another is replaced whole
    const secrets = [...this.secrets].sort(([a], [b]) => b.length - a.length);
    for (const [secret, alike] of secrets) text = text.split(secret).join(alike);
    // a key's prefix as listed (psk_ and some characters): the look-alike's
    text = text.replace(/"(psk_[A-Za-z0-9_-]{4,16})"/g, (whole, prefix: string) => {
      const key = secrets.find(([secret]) => secret.startsWith(prefix));
      return key ? JSON.stringify(key[1].slice(0, prefix.length)) : whole;
    });
    return JSON.parse(text) as T;
  }

  private time(value: string): string {
    const at = Date.parse(value);
    const offset = at - this.clockStart;
    if (Math.abs(offset) > NEAR_MS) return value;
    // the service's clock stands at clockStart: what it computes falls on whole seconds from it
    // (a token's expiry, a window's reset); what the database stamped has its own milliseconds
    return new Date(EXAMPLE_NOW + (offset % 1000 === 0 ? offset : 0)).toISOString();
  }
}

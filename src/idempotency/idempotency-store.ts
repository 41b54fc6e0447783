import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';

/** How long a key and its response are kept (Stripe's 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/**
 * How long a request holds its key before a retry may take it over. Far above any request's time
 * (the search engines give up after 5 s); only reached when the process holding the key ended, or
 * when its release failed with the database (then the retry gets 409 until it passes).
 */
export const IDEMPOTENCY_LEASE_MS = 30_000;
/** How often each API process deletes expired keys. */
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 5_000;

/** A response as it was sent: status, the headers the route set, the JSON body text. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  /** the key is this request's: run it, then complete() or release() */
  | { outcome: 'claimed'; attempt: string }
  /** the key's request finished: send its response again */
  | { outcome: 'replay'; response: StoredResponse }
  /** another request with the key is still running */
  | { outcome: 'in_flight' }
  /** the key was used with other parameters */
  | { outcome: 'mismatch' };

/** The key is no longer this attempt's (its lease passed and a retry took it over). */
export class IdempotencyKeyLostError extends Error {
  constructor() {
    super('idempotency key taken over by another attempt');
    this.name = 'IdempotencyKeyLostError';
  }
}

interface KeyRow {
  fingerprint: Buffer;
  state: 'in_flight' | 'done';
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

/**
 * Idempotency keys in PostgreSQL (sql/0028): one row per account and key, claimed by the request
 * that first presents it and completed with its response, in the transaction of the request's own
 * writes when it has any (see TransactionScope).
 */
export class IdempotencyStore {
  private pruning: NodeJS.Timeout | null = null;

  constructor(
    readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Takes the key for a new attempt, or says what became of it. A key past its 24 hours, or held
   * by an attempt whose lease has passed with the same parameters, is taken as if new.
   */
  async claim(accountId: string, key: string, fingerprint: Buffer): Promise<Claim> {
    const attempt = randomUUID();
    // Again when the key was released between the insert and the read: it is free now.
    for (let tries = 0; tries < 3; tries++) {
      const now = this.clock.now();
      const expired = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
      const abandoned = new Date(now.getTime() - IDEMPOTENCY_LEASE_MS);
      const taken = await sql<{ attempt: string }>`
        insert into idempotency_keys as k
               (account_id, idem_key, fingerprint, attempt, state, created_at, locked_at)
        values (${accountId}, ${key}, ${fingerprint}, ${attempt}, 'in_flight', ${now}, ${now})
        on conflict (account_id, idem_key) do update
           set fingerprint = excluded.fingerprint, attempt = excluded.attempt, state = 'in_flight',
               created_at = excluded.created_at, locked_at = excluded.locked_at,
               status = null, headers = null, body = null
         where k.created_at <= ${expired}
            or (k.state = 'in_flight' and k.locked_at <= ${abandoned}
                and k.fingerprint = excluded.fingerprint)
        returning attempt`.execute(this.db);
      if (taken.rows[0]?.attempt === attempt) return { outcome: 'claimed', attempt };

      const found = await sql<KeyRow>`
        select fingerprint, state, status, headers, body from idempotency_keys
         where account_id = ${accountId} and idem_key = ${key}`.execute(this.db);
      const row = found.rows[0];
      if (!row) continue;
      if (!Buffer.from(row.fingerprint).equals(fingerprint)) return { outcome: 'mismatch' };
      if (row.state === 'in_flight') return { outcome: 'in_flight' };
      return {
        outcome: 'replay',
        response: { status: row.status!, headers: row.headers ?? {}, body: row.body! },
      };
    }
    return { outcome: 'in_flight' };
  }

  /**
   * Stores the attempt's response; in `trx` when given, so it commits with the attempt's writes.
   * Throws IdempotencyKeyLostError when the key is no longer this attempt's: the transaction then
   * rolls back and the attempt has done nothing.
   */
  async complete(
    executor: Database,
    accountId: string,
    key: string,
    attempt: string,
    response: StoredResponse,
  ): Promise<void> {
    const result = await sql`
      update idempotency_keys
         set state = 'done', status = ${response.status}, headers = ${JSON.stringify(response.headers)}::jsonb,
             body = ${response.body}, locked_at = ${this.clock.now()}
       where account_id = ${accountId} and idem_key = ${key} and attempt = ${attempt}
         and state = 'in_flight'`.execute(executor);
    if (Number(result.numAffectedRows ?? 0) !== 1) throw new IdempotencyKeyLostError();
  }

  /** Gives the key up (a response that is not kept: 5xx, 409, 429): a retry runs afresh. */
  async release(accountId: string, key: string, attempt: string): Promise<void> {
    await sql`
      delete from idempotency_keys
       where account_id = ${accountId} and idem_key = ${key} and attempt = ${attempt}
         and state = 'in_flight'`.execute(this.db);
  }

  /** Deletes the keys past their 24 hours, a batch at a time; returns how many. */
  async prune(): Promise<number> {
    const expired = new Date(this.clock.now().getTime() - IDEMPOTENCY_KEY_TTL_MS);
    let total = 0;
    for (;;) {
      const result = await sql`
        delete from idempotency_keys where ctid in (
          select ctid from idempotency_keys where created_at <= ${expired} limit ${PRUNE_BATCH})`.execute(
        this.db,
      );
      const deleted = Number(result.numAffectedRows ?? 0);
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  }

  /** Prunes every 10 minutes until stop(); a failure is logged and tried again next time. */
  start(): void {
    this.pruning ??= setInterval(() => {
      this.prune().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'idempotency keys: pruning failed'),
      );
    }, PRUNE_EVERY_MS).unref();
  }

  stop(): void {
    if (this.pruning) clearInterval(this.pruning);
    this.pruning = null;
  }
}

import type { Database } from './database.js';

/**
 * A transaction offered by a caller that has writes of its own to commit with a service's: the
 * service does its work in it and returns its result, the caller adds what it writes for that
 * result (an Idempotency-Key's stored response), and both commit or neither does.
 */
export interface TransactionScope<T> {
  run(work: (trx: Database) => Promise<T>): Promise<T>;
}

import { Queue, type ConnectionOptions } from 'bullmq';

/**
 * The queue between the relay (producer, indexer/relay.ts) and the worker (consumer,
 * indexer/worker.ts): its name, what a job carries, and how it is made. Both sides import this
 * file and never each other.
 *
 * The queue is transport, not the record: PostgreSQL's outbox says what the index still owes, and
 * the relay hands out again whatever a lost or failed job did not deliver (indexer/outbox.ts).
 */
export const QUEUE_NAME = 'search-index';

/** One owed change: item X should be in the index at version V or later (deleted: a tombstone). */
export interface OwedChange {
  itemId: number;
  version: number;
  deleted: boolean;
}

/**
 * A job is a batch of owed changes, written by the worker in one bulk request: a burst of changes
 * (a seller's whole feed) travels in jobs of up to the relay's batch size instead of one job per
 * item.
 */
export interface IndexJob {
  changes: OwedChange[];
}

/**
 * BullMQ's connection options from a redis:// or rediss:// URL. The worker (`consumer`) blocks on
 * Redis and must not give up on a slow command; the relay (`producer`) fails fast while Redis is
 * away, so its round ends with an error and the rows it claimed are available again, instead of
 * waiting on commands queued in the client.
 */
export function redisConnection(redisUrl: string, role: 'producer' | 'consumer'): ConnectionOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    ...(role === 'consumer'
      ? { maxRetriesPerRequest: null }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false }),
  };
}

/** One queue per alias: deployments (or test runs) sharing a Redis stay apart. */
export const queuePrefix = (alias: string): string => `bull-${alias}`;

export interface QueueOptions {
  /** failed jobs of a passing cause are not retried by BullMQ (the worker waits instead): this is for bugs */
  attempts?: number;
}

export function createIndexQueue(
  connection: ConnectionOptions,
  alias: string,
  { attempts = 5 }: QueueOptions = {},
): Queue<IndexJob> {
  return new Queue<IndexJob>(QUEUE_NAME, {
    connection,
    prefix: queuePrefix(alias),
    defaultJobOptions: {
      attempts,
      backoff: { type: 'exponential', delay: 1_000 },
      // Nothing reads finished jobs back: the outbox holds the outcome. A few are kept to look at.
      removeOnComplete: { count: 1_000 },
      removeOnFail: { count: 10_000 },
    },
  });
}

import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../src/db/database.js';
import { readStockDocumentsAfter } from '../src/search/stock-documents.js';
import { catchUp, rebuildRegistry, takeChangeMark } from './catch-up.js';
import { writeBatch, type WriteOutcome } from './cluster.js';
import {
  aliasTargets,
  createLoadingIndex,
  deleteIndices,
  deleteUnlessLive,
  finishLoad,
  nextIndexName,
  swapAlias,
  versionedIndices,
} from './index-admin.js';
import { enableOutbox, recordRejected } from './outbox.js';

export interface RebuildResult {
  index: string;
  documents: number;
  removed: string[];
}

/** Where a rebuild stands; `onStage` is told before it moves on (tests interleave changes there). */
export type RebuildStage = 'loaded' | 'caught-up' | 'swapped';

export interface RebuildOptions {
  progress?: (done: number) => void;
  batchSize?: number;
  /** told when the mark waits for transactions still open, with the seconds waited */
  onWait?: (seconds: number, transactions: number) => void;
  onStage?: (stage: RebuildStage, index: string) => Promise<void>;
  /** seconds before a document the cluster refused for its content is tried again (by the worker) */
  rejectedRetrySeconds?: number;
  /** primary shards of the new index (OPENSEARCH_SHARDS); the mapping file's when null */
  shards?: number | null;
}

/**
 * What a write of the rebuild means for it: documents refused for their content are recorded in
 * the outbox with the reason (the worker tries them again; index:verify lists them) and the build
 * goes on, since one bad row must not keep every rebuild from finishing; anything else refused
 * fails the build, which is tried again.
 */
async function settle(db: Database, outcome: WriteOutcome, rejectedRetrySeconds: number): Promise<void> {
  await recordRejected(db, outcome.rejected, rejectedRetrySeconds);
  if (outcome.failed.length) {
    throw new Error(
      `documents not written: ${outcome.failed
        .slice(0, 10)
        .map((f) => `${f.itemId} (${f.reason})`)
        .join(', ')}`,
    );
  }
}

/**
 * Loads every stock item into a fresh index and swaps the alias to it, while changes keep arriving.
 * The outbox is switched on and a change mark taken first; the changes after the mark are written
 * into the new index before the swap (so it starts current) and once more after it: a change the
 * worker wrote between the first replay and the swap went, through the alias, to the old index,
 * which is then deleted. Versions make both replays harmless. A build that fails removes its
 * half-built index.
 */
export async function rebuildIndex(
  db: Database,
  client: Client,
  alias: string,
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const {
    batchSize = 2_000,
    progress = () => undefined,
    onStage = async () => undefined,
    rejectedRetrySeconds = 600,
  } = options;
  const written = (outcome: WriteOutcome) => settle(db, outcome, rejectedRetrySeconds);
  await enableOutbox(db);
  await deleteAbandoned(db, client, alias);
  const index = await nextIndexName(client, alias);
  const mark = await takeChangeMark(db, options.onWait);
  await rebuildRegistry.register(db, index, mark);
  try {
    await createLoadingIndex(client, index, options.shards ?? null);
    const done = await loadAll(db, client, index, batchSize, written, async (n) => {
      await rebuildRegistry.heartbeat(db, index);
      progress(n);
    });
    await onStage('loaded', index);
    await written(await catchUp(db, client, index, mark));
    await finishLoad(client, index);
    await onStage('caught-up', index);
    const previous = await swapAlias(client, alias, index);
    await onStage('swapped', index);
    await written(await catchUp(db, client, index, mark));
    await deleteIndices(client, previous);
    return { index, documents: done, removed: previous };
  } catch (error) {
    await deleteUnlessLive(client, alias, index).catch(() => undefined);
    throw error;
  } finally {
    await rebuildRegistry.unregister(db, index).catch(() => undefined);
  }
}

/** Bulk requests a load keeps in flight: the next batch is read while the last ones are written. */
const LOAD_CONCURRENCY = 2;

/**
 * Every stock item into `index`, in id order, batch by batch, with up to LOAD_CONCURRENCY bulk
 * requests in flight (reading PostgreSQL and writing the cluster overlap). Returns the documents
 * loaded; each write is settled by `settleWrite`, then `loaded` is told the running total, in order.
 */
async function loadAll(
  db: Database,
  client: Client,
  index: string,
  batchSize: number,
  settleWrite: (outcome: WriteOutcome) => Promise<void>,
  loaded: (done: number) => Promise<void>,
): Promise<number> {
  let done = 0;
  let after = 0;
  let failure: { error: unknown } | null = null;
  let completed: Promise<void> = Promise.resolve();
  const inFlight: Promise<unknown>[] = [];
  while (!failure) {
    const documents = await readStockDocumentsAfter(db, after, batchSize);
    if (documents.length === 0) break;
    after = documents[documents.length - 1]!.id;
    const write = writeBatch(client, index, { documents, deletions: [] });
    inFlight.push(write.catch(() => undefined));
    completed = completed
      .then(async () => {
        await settleWrite(await write);
        done += documents.length;
        await loaded(done);
      })
      .catch((error: unknown) => {
        failure ??= { error };
      });
    if (inFlight.length >= LOAD_CONCURRENCY) await inFlight.shift();
  }
  await completed;
  if (failure) throw (failure as { error: unknown }).error;
  return done;
}

/**
 * Indices of this alias that are neither behind it nor being built: left by a rebuild whose process
 * died half-way (one that fails removes its own), or by a swap whose old index could not be deleted.
 */
async function deleteAbandoned(db: Database, client: Client, alias: string): Promise<void> {
  const live = new Set(await aliasTargets(client, alias));
  const building = await rebuildRegistry.active(db);
  const abandoned = (await versionedIndices(client, alias)).filter((i) => !live.has(i) && !building.has(i));
  await deleteIndices(client, abandoned);
}

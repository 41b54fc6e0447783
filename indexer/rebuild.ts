import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../src/db/database.js';
import { readStockDocumentsAfter } from '../src/search/stock-documents.js';
import { catchUp, outboxMark } from './catch-up.js';
import { writeBatch } from './cluster.js';
import { createLoadingIndex, finishLoad, nextIndexName, swapAlias } from './index-admin.js';
import { enableOutbox } from './outbox.js';

export interface RebuildResult {
  index: string;
  documents: number;
  removed: string[];
}

/**
 * Loads every stock item into a fresh index, then swaps the alias to it. The outbox is switched
 * on first so that changes made during the load are recorded and replayed before the swap.
 */
export async function rebuildIndex(
  db: Database,
  client: Client,
  alias: string,
  progress: (done: number) => void = () => undefined,
  batchSize = 2_000,
): Promise<RebuildResult> {
  await enableOutbox(db);
  const mark = await outboxMark(db);
  const index = await nextIndexName(client, alias);
  await createLoadingIndex(client, index);
  let done = 0;
  let after = 0;
  for (;;) {
    const documents = await readStockDocumentsAfter(db, after, batchSize);
    if (documents.length === 0) break;
    const outcome = await writeBatch(client, index, { documents, deletions: [] });
    if (outcome.failed.length) {
      throw new Error(
        `documents not indexed: ${outcome.failed.map((f) => `${f.id} (${f.reason})`).join(', ')}`,
      );
    }
    done += documents.length;
    after = documents[documents.length - 1]!.id;
    progress(done);
  }
  await catchUp(db, client, index, mark);
  await finishLoad(client, index);
  const removed = await swapAlias(client, alias, index);
  return { index, documents: done, removed };
}

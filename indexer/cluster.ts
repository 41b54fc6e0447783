import { Client, type API } from '@opensearch-project/opensearch';
import type { StockDocument } from '../src/search/engine.js';
import { deleteLines, indexLines } from '../src/search/opensearch/documents.js';

/** What the worker writes: current documents, and tombstones for items that are gone. */
export interface WriteBatch {
  documents: StockDocument[];
  deletions: { id: number; version: number }[];
}

export interface WriteOutcome {
  written: number;
  /** refused because the index already holds this or a newer version: nothing to do */
  stale: number;
  /** ids that failed for another reason (retried by the job) */
  failed: { id: string; reason: string }[];
}

export function createClusterClient(url: string): Client {
  return new Client({ node: url, requestTimeout: 30_000, maxRetries: 2 });
}

/**
 * One bulk request with external versions; a 409 is a newer document already there. Writing
 * through the alias (`viaAlias`) requires it to exist: without it the cluster would create a
 * plain index of that name with guessed mappings.
 */
export async function writeBatch(
  client: Client,
  index: string,
  batch: WriteBatch,
  viaAlias = false,
): Promise<WriteOutcome> {
  const body = [...indexLines(index, batch.documents), ...deleteLines(index, batch.deletions)];
  const outcome: WriteOutcome = { written: 0, stale: 0, failed: [] };
  if (body.length === 0) return outcome;
  const response = await client.bulk({ body, ...(viaAlias ? { require_alias: true } : {}) });
  const answer: API.Bulk_ResponseBody = response.body;
  for (const item of answer.items) {
    const result = item.index ?? item.delete ?? item.create ?? item.update;
    if (!result) continue;
    // A delete of a document that is not there (404) still records the tombstone.
    if (result.status === 409) outcome.stale++;
    else if (result.status >= 300 && !(item.delete && result.status === 404))
      outcome.failed.push({
        id: String(result._id),
        reason: result.error?.reason ?? `status ${result.status}`,
      });
    else outcome.written++;
  }
  return outcome;
}

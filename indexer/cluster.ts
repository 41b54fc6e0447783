import type { API, Client } from '@opensearch-project/opensearch';
import type { ClusterConnection } from '../src/config.js';
import type { StockDocument } from '../src/search/engine.js';
import { createClusterClient as clusterClient } from '../src/search/opensearch/cluster-client.js';
import { deleteLines, indexLines } from '../src/search/opensearch/documents.js';

/** What a bulk request writes: current documents, and tombstones for items that are gone. */
export interface WriteBatch {
  documents: StockDocument[];
  deletions: { id: number; version: number }[];
}

/** One item of a bulk request: what was sent, and what the cluster made of it. */
export interface ItemResult {
  itemId: number;
  version: number;
  deleted: boolean;
  reason: string;
}

export interface WriteOutcome {
  /**
   * The index holds the item at the version sent or a later one: written, a tombstone recorded
   * (a delete of a document that is not there still records it), or refused with 409 because a
   * newer version is already there.
   */
  acknowledged: Omit<ItemResult, 'reason'>[];
  /** of the acknowledged, those refused with 409 (a newer version was already there) */
  stale: number;
  /** refused for their content (400: a mapping error, an unparsable field): kept owed with the reason */
  rejected: ItemResult[];
  /** refused for a passing cause (429, 5xx, a blocked or missing index): written again later */
  failed: ItemResult[];
}

/**
 * The indexer's and the commands' client (bulk writes, rebuilds, verification): 30 s per attempt,
 * and the client retries a failed attempt on the next node — every write carries an external
 * version, so a repeat is harmless — at least twice, and enough to reach every node of the list.
 * `connection`: the configuration's (OPENSEARCH_URL, credentials, CA), or an address list.
 */
export function createClusterClient(connection: ClusterConnection | string): Client {
  const nodes = typeof connection === 'string' ? connection.split(',').length : connection.nodes.length;
  return clusterClient(connection, { requestTimeout: 30_000, maxRetries: Math.max(2, nodes - 1) });
}

/** What writeBatch reads of a bulk answer (filter_path): each item's status and error. */
const BULK_ANSWER_FIELDS = ['items.*.status', 'items.*.error'];

/**
 * One bulk request with external versions, every item's answer read. Writing through the alias
 * (`viaAlias`) requires it to exist: without it the cluster would create a plain index of that
 * name with guessed mappings.
 */
export async function writeBatch(
  client: Client,
  index: string,
  batch: WriteBatch,
  viaAlias = false,
): Promise<WriteOutcome> {
  const body = [...indexLines(index, batch.documents), ...deleteLines(index, batch.deletions)];
  const outcome: WriteOutcome = { acknowledged: [], stale: 0, rejected: [], failed: [] };
  if (body.length === 0) return outcome;
  const sent = [
    ...batch.documents.map((d) => ({ itemId: d.id, version: d.version, deleted: false })),
    ...batch.deletions.map((d) => ({ itemId: d.id, version: d.version, deleted: true })),
  ];
  const response = await client.bulk({
    body,
    // only what is read below: a rebuild's answers would otherwise repeat every document's metadata
    filter_path: BULK_ANSWER_FIELDS,
    ...(viaAlias ? { require_alias: true } : {}),
  });
  const answer: API.Bulk_ResponseBody = response.body;
  answer.items.forEach((item, i) => {
    const result = item.index ?? item.delete ?? item.create ?? item.update;
    const what = sent[i]!;
    if (!result) return void outcome.failed.push({ ...what, reason: 'no answer for this item' });
    const status = result.status;
    if (status < 300 || (what.deleted && status === 404 && !result.error) || status === 409) {
      if (status === 409) outcome.stale++;
      outcome.acknowledged.push(what);
      return;
    }
    const reason = result.error ? `${result.error.type}: ${result.error.reason ?? ''}` : `status ${status}`;
    (status === 400 ? outcome.rejected : outcome.failed).push({ ...what, reason });
  });
  return outcome;
}

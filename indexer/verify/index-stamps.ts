import { createHash } from 'node:crypto';
import type { Client } from '@opensearch-project/opensearch';
import type { ItemStamp } from '../../src/search/stock-documents.js';

/**
 * The index's side of a verification: each document's id, its actual `_version` and the
 * `content_hash` it was written with. `_version` is what makes a document overwritten behind the
 * indexer's back visible (a hand-made write, even with a higher external version, or a partial
 * update, changes it), and the cluster cannot aggregate it ("Fielddata is not supported on field
 * [_version]"), so the index's digest of a range is computed here from a scan that reads no
 * `_source`: ids, versions and one doc value.
 */

/** How many hits one scan request reads (within the index's max_result_window). */
const SCAN_PAGE = 5_000;

interface StampHit {
  _id: string;
  _version?: number;
  sort?: (number | string)[];
  fields?: { content_hash?: string[] };
}

const toStamp = (hit: StampHit): ItemStamp => ({
  id: Number(hit._id),
  version: hit._version ?? 0,
  contentHash: hit.fields?.content_hash?.[0] ?? '',
});

/** The stamps of the documents with `lo < id <= hi` (hi null: no upper bound), in id order. */
export async function readIndexStamps(
  client: Client,
  alias: string,
  lo: number,
  hi: number | null,
): Promise<ItemStamp[]> {
  const stamps: ItemStamp[] = [];
  let after: (number | string)[] | undefined;
  for (;;) {
    const answer = await client.search({
      index: alias,
      body: {
        query: { range: { id: hi === null ? { gt: lo } : { gt: lo, lte: hi } } },
        sort: [{ id: 'asc' }],
        _source: false,
        version: true,
        docvalue_fields: ['content_hash'],
        size: SCAN_PAGE,
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      },
    });
    const hits = answer.body.hits.hits as StampHit[];
    stamps.push(...hits.map(toStamp));
    if (hits.length < SCAN_PAGE) return stamps;
    after = hits[hits.length - 1]!.sort;
  }
}

/**
 * The stamps of these documents as the index holds them right now (a realtime get: what was
 * written but not yet refreshed into searches counts). Ids without a document are absent.
 */
export async function readIndexStampsOf(client: Client, alias: string, ids: number[]): Promise<ItemStamp[]> {
  if (ids.length === 0) return [];
  const answer = await client.mget({
    index: alias,
    body: { ids: ids.map(String) },
    _source: ['content_hash'],
  });
  const docs = answer.body.docs as {
    _id: string;
    found?: boolean;
    _version?: number;
    _source?: { content_hash?: string };
  }[];
  return docs
    .filter((d) => d.found)
    .map((d) => ({
      id: Number(d._id),
      version: d._version ?? 0,
      contentHash: d._source?.content_hash ?? '',
    }));
}

/** The digest both sides compute of a range: md5 of `id:version:content_hash`, comma-joined in id order. */
export function stampsDigest(stamps: ItemStamp[]): string {
  return createHash('md5')
    .update(stamps.map((s) => `${s.id}:${s.version}:${s.contentHash}`).join(','))
    .digest('hex');
}

/** Documents the range scans cannot see: no numeric `id` field (written by hand, not by the indexer). */
export async function readUnrangedIds(client: Client, alias: string, limit: number): Promise<string[]> {
  const answer = await client.search({
    index: alias,
    body: { query: { bool: { must_not: { exists: { field: 'id' } } } }, _source: false, size: limit },
  });
  return (answer.body.hits.hits as { _id: string }[]).map((h) => h._id);
}

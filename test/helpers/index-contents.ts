import { isDeepStrictEqual } from 'node:util';
import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { StockDocument } from '../../src/search/engine.js';
import { toSource, type StockSource } from '../../src/search/opensearch/documents.js';
import { readStockDocumentsAfter } from '../../src/search/stock-documents.js';

/** id → version of every document an index (or alias) holds now (refreshed first). */
export async function indexedVersions(client: Client, index: string): Promise<Map<number, number>> {
  await client.indices.refresh({ index });
  const versions = new Map<number, number>();
  let after: number[] | undefined;
  for (;;) {
    const answer = await client.search({
      index,
      body: {
        query: { match_all: {} },
        sort: [{ id: { order: 'asc' } }],
        size: 5_000,
        version: true,
        _source: false,
        ...(after ? { search_after: after } : {}),
      },
    });
    const hits = answer.body.hits.hits;
    for (const h of hits) versions.set(Number(h._id), h._version!);
    if (hits.length < 5_000) return versions;
    after = hits.at(-1)!.sort as number[];
  }
}

/** id → version of every stock item in PostgreSQL. */
export async function stockVersions(db: Database): Promise<Map<number, number>> {
  const rows = await sql<{ id: string; version: string }>`select id, version from stock_items`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.id), Number(r.version)]));
}

/** The version of one document, read in real time (no refresh needed); null when not there. */
export async function documentVersion(client: Client, index: string, id: number): Promise<number | null> {
  const answer = await client.get({ index, id: String(id) }, { ignore: [404] });
  return answer.body.found ? answer.body._version! : null;
}

/** What differs between the index and the stock: missing, extra, and stale documents (at most 10 each). */
export function differences(indexed: Map<number, number>, stock: Map<number, number>): string[] {
  const missing = [...stock.keys()].filter((id) => !indexed.has(id));
  const extra = [...indexed.keys()].filter((id) => !stock.has(id));
  const stale = [...stock].filter(([id, v]) => indexed.has(id) && indexed.get(id) !== v);
  return [
    ...(missing.length ? [`missing ${missing.length}: ${missing.slice(0, 10).join(', ')}`] : []),
    ...(extra.length ? [`extra ${extra.length}: ${extra.slice(0, 10).join(', ')}`] : []),
    ...(stale.length
      ? [
          `stale ${stale.length}: ${stale
            .slice(0, 10)
            .map(([id, v]) => `${id} at ${indexed.get(id)} (row ${v})`)
            .join(', ')}`,
        ]
      : []),
  ];
}

/** The document as the cluster keeps it: without the text analysed per language (`_source.excludes`). */
function storedSource(row: StockDocument): StockSource {
  const source = toSource(row);
  delete source.text_lang;
  return source;
}

/**
 * Every item compared with its document, independently of the indexer's own verification (no
 * digests, no content hashes): each PostgreSQL row as the indexer would write it against the
 * document's `_source` and `_version`, read in real time, and no document without a row. Returns
 * what differs (at most 20 lines); empty when the index is exactly PostgreSQL.
 */
export async function indexMismatches(db: Database, client: Client, alias: string): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set<number>();
  for (let after = 0; ;) {
    const rows = await readStockDocumentsAfter(db, after, 1_000);
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    const answer = await client.mget({ index: alias, body: { ids: rows.map((r) => String(r.id)) } });
    const docs = answer.body.docs as { _id: string; found?: boolean; _version?: number; _source?: unknown }[];
    rows.forEach((row, i) => {
      seen.add(row.id);
      const doc = docs[i]!;
      if (!doc.found) found.push(`${row.id}: missing (row at version ${row.version})`);
      else if (doc._version !== row.version)
        found.push(`${row.id}: version ${doc._version} (row ${row.version})`);
      else if (!isDeepStrictEqual(doc._source, storedSource(row))) found.push(`${row.id}: content differs`);
    });
  }
  await client.indices.refresh({ index: alias });
  for (const id of (await indexedVersions(client, alias)).keys()) {
    if (!seen.has(id)) found.push(`${id}: document without a row`);
  }
  return found.slice(0, 20);
}

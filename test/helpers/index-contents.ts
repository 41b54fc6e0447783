import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

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

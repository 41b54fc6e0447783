import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** One column of a batch: its SQL type and its values in row order. */
export interface ColumnValues {
  name: string;
  /** int, text, jsonb (values as JSON text) or text[] (values as comma-joined text) */
  type: 'int' | 'text' | 'jsonb' | 'text[]';
  values: unknown[];
}

const ARRAY_TYPE: Record<ColumnValues['type'], string> = {
  int: 'int[]',
  text: 'text[]',
  jsonb: 'text[]',
  'text[]': 'text[]',
};

/**
 * Inserts many rows in one statement with one array parameter per column (`unnest`), which is
 * an order of magnitude faster than row-by-row inserts and works the same on PostgreSQL and
 * PGlite.
 */
export async function bulkInsert(
  db: Database,
  table: string,
  columns: ColumnValues[],
  /** with `upsert`, rows whose key (the listed columns) exists are replaced */
  options: { upsert?: string[] } = {},
): Promise<void> {
  const names = columns.map((c, i) => ({ column: c.name, alias: `c${i}` }));
  const selected = columns.map((c, i) => {
    const alias = sql.ref(`u.c${i}`);
    if (c.type === 'jsonb') return sql`${alias}::jsonb`;
    if (c.type === 'text[]') return sql`coalesce(string_to_array(${alias}, ','), '{}')`;
    return alias;
  });
  const arrays = columns.map((c) => sql`${c.values}::${sql.raw(ARRAY_TYPE[c.type])}`);
  const key = options.upsert ?? [];
  const updates = columns
    .filter((c) => !key.includes(c.name))
    .map((c) => sql`${sql.ref(c.name)} = excluded.${sql.ref(c.name)}`);
  await sql`
    insert into ${sql.table(table)} (${sql.join(names.map((n) => sql.ref(n.column)))})
    select ${sql.join(selected)}
    from unnest(${sql.join(arrays)}) as u(${sql.join(names.map((n) => sql.raw(n.alias)))})
    ${key.length ? sql`on conflict (${sql.join(key.map((k) => sql.ref(k)))}) do update set ${sql.join(updates)}` : sql``}`.execute(
    db,
  );
}

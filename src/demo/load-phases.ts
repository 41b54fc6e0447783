import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** Called as a load advances: phase label (Portuguese, shown to people), rows done, rows expected. */
export type LoadProgress = (phase: string, done: number, total: number) => void;

export interface LoadSummary {
  vendors: number;
  xrefGroups: number;
  xrefGroupReferences: number;
  items: number;
  itemReferences: number;
  seconds: number;
}

export const emptySummary = (): LoadSummary => ({
  vendors: 0,
  xrefGroups: 0,
  xrefGroupReferences: 0,
  items: 0,
  itemReferences: 0,
  seconds: 0,
});

export const totalRows = (s: LoadSummary) =>
  s.vendors + s.xrefGroups + s.xrefGroupReferences + s.items + s.itemReferences;

export const PHASE = {
  vendors: 'Vendedores',
  groups: 'Grupos de equivalências',
  items: 'Artigos em stock',
  itemReferences: 'Referências associadas',
  indexes: 'Índices',
} as const;

/** The highest ids in use, so generated rows can be appended after them. */
export async function takenIds(db: Database): Promise<{ vendor: number; group: number; item: number }> {
  const row = await sql<{ vendor: string; group: string; item: string }>`select
      (select coalesce(max(id), 0) from vendors) as vendor,
      (select coalesce(max(id), 0) from xref_groups) as "group",
      (select coalesce(max(id), 0) from stock_items) as item`
    .execute(db)
    .then((r) => r.rows[0]!);
  return { vendor: Number(row.vendor), group: Number(row.group), item: Number(row.item) };
}

/**
 * The loaders write explicit ids; identity sequences must then move past them, or the next
 * ordinary insert would collide. ANALYZE gives the planner figures for the new rows at once.
 */
export const AFTER_LOAD_SQL = [
  `select setval(pg_get_serial_sequence('vendors', 'id'), greatest((select max(id) from vendors), 1))`,
  `select setval(pg_get_serial_sequence('xref_groups', 'id'), greatest((select max(id) from xref_groups), 1))`,
  `select setval(pg_get_serial_sequence('stock_items', 'id'), greatest((select max(id) from stock_items), 1))`,
];

export const ANALYZE_SQL =
  'analyze vendors, xref_groups, xref_group_references, stock_items, stock_item_references';

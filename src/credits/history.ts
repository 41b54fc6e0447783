import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { LedgerKind } from '../db/schema.js';

export interface HistoryFilter {
  from?: Date;
  to?: Date;
  kind?: LedgerKind;
  page: number;
  perPage: number;
}

export interface HistoryEntry {
  id: string;
  kind: LedgerKind;
  /** change of the balance: negative for a charged search, 0 for a free one */
  credits: number;
  /** balance after the change; null for free searches (the balance did not change) */
  balance_after: number | null;
  created_at: string;
  search: {
    query: unknown;
    query_summary: string;
    total: number;
    page: number;
    token_status: string;
  } | null;
}

interface HistoryRow {
  id: string;
  kind: LedgerKind;
  credits: number;
  balance_after: number | null;
  created_at: Date;
  query: unknown;
  query_summary: string | null;
  total: number | null;
  page: number | null;
  token_status: string | null;
}

/**
 * Every search and stats request (charged or free) and every other credit movement (signup,
 * purchase, adjustment) of an account, newest first.
 */
export async function creditHistory(
  db: Database,
  accountId: string,
  filter: HistoryFilter,
): Promise<{ total: number; entries: HistoryEntry[] }> {
  const conditions = [sql`true`];
  if (filter.from) conditions.push(sql`h.created_at >= ${filter.from}`);
  if (filter.to) conditions.push(sql`h.created_at < ${filter.to}`);
  if (filter.kind) conditions.push(sql`h.kind = ${filter.kind}`);
  const history = sql`(
    select 'l' || l.id as id, l.id as seq, l.kind, l.delta as credits, l.balance_after, l.created_at,
           null::jsonb as query, null::text as query_summary, null::int as total, null::int as page, null::text as token_status
      from credit_ledger l
     where l.account_id = ${accountId} and l.kind not in ('search', 'stats')
    union all
    select 's' || s.id, s.id, s.kind, -s.credits_spent, l.balance_after, s.created_at,
           s.query, s.query_summary, s.total, s.page, s.token_status
      from searches s left join credit_ledger l on l.search_id = s.id
     where s.account_id = ${accountId}
  ) h where ${sql.join(conditions, sql` and `)}`;
  const [count, rows] = await Promise.all([
    sql<{ n: string }>`select count(*) as n from ${history}`.execute(db),
    sql<HistoryRow>`select * from ${history}
      order by h.created_at desc, h.seq desc, h.id desc
      limit ${filter.perPage} offset ${(filter.page - 1) * filter.perPage}`.execute(db),
  ]);
  return {
    total: Number(count.rows[0]!.n),
    entries: rows.rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      credits: r.credits,
      balance_after: r.balance_after,
      created_at: r.created_at.toISOString(),
      search:
        r.query_summary === null
          ? null
          : {
              query: r.query,
              query_summary: r.query_summary,
              total: r.total!,
              page: r.page!,
              token_status: r.token_status!,
            },
    })),
  };
}

import { sql, type Transaction } from 'kysely';
import type { Principal } from '../accounts/principal.js';
import type { Database } from '../db/database.js';
import type { DB, SearchKind } from '../db/schema.js';
import { paymentRequired } from '../http/errors.js';

export interface SearchRecord {
  kind: SearchKind;
  query: Record<string, unknown>;
  summary: string;
  total: number;
  page: number;
  perPage: number;
  tokenStatus: string;
}

export interface ChargeOutcome {
  creditsRemaining: number;
  searchId: string;
}

/** The UTC day of `now` as YYYY-MM-DD: daily limits count per UTC day. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/** Today's spend of a row with spent_day/spent_today counters (0 when the counter is of another day). */
const spentOn = (day: string) =>
  sql<number>`(case when spent_day = ${day}::date then spent_today else 0 end)`;

/** Credits spent today (UTC) by the account. */
export async function spentToday(
  db: Database | Transaction<DB>,
  accountId: string,
  now: Date,
): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select(spentOn(utcDay(now)).as('spent'))
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.spent);
}

interface ChargeRow {
  status: 'ok' | 'insufficient' | 'account_limit' | 'key_limit';
  credits: number | null;
  search_id: string | null;
  daily_limit: number | null;
  spent: number | null;
}

/**
 * Records a search and charges its cost. A charge is one call of the charge_search() SQL function
 * (sql/0006): it locks the key and account rows, checks the balance and both daily limits on them,
 * and writes the debit, the counters, the history and the ledger rows, or nothing. Concurrent
 * charges of one account queue on its row, so they can never overspend; one round trip keeps the
 * lock short. 402 when the balance or a limit forbids it.
 */
export async function recordSearch(
  db: Database,
  principal: Principal,
  cost: number,
  search: SearchRecord,
  now: Date,
): Promise<ChargeOutcome> {
  if (cost === 0) {
    // Free: the history row and the balance to report, in one round trip.
    const row = await db
      .insertInto('searches')
      .values({
        account_id: principal.accountId,
        api_key_id: principal.apiKeyId,
        kind: search.kind,
        query: JSON.stringify(search.query),
        query_summary: search.summary,
        total: search.total,
        page: search.page,
        per_page: search.perPage,
        credits_spent: 0,
        token_status: search.tokenStatus,
        created_at: now,
      })
      .returning((eb) => [
        'id',
        eb.selectFrom('accounts').select('credits').where('id', '=', principal.accountId).as('credits'),
      ])
      .executeTakeFirstOrThrow();
    return { creditsRemaining: row.credits ?? 0, searchId: row.id };
  }
  const result = await sql<ChargeRow>`
    select * from charge_search(${principal.accountId}, ${principal.apiKeyId}, ${cost}, ${utcDay(now)}::date, ${now},
      ${search.kind}, ${JSON.stringify(search.query)}::jsonb, ${search.summary}, ${search.total}, ${search.page},
      ${search.perPage}, ${search.tokenStatus})`.execute(db);
  const row = result.rows[0]!;
  switch (row.status) {
    case 'ok':
      return { creditsRemaining: row.credits!, searchId: row.search_id! };
    case 'insufficient':
      throw paymentRequired(
        `Créditos insuficientes: esta pesquisa custa ${cost} crédito e o saldo é ${row.credits}. Compre créditos em /data/credits/packages.`,
        'INSUFFICIENT_CREDITS',
        { credits_remaining: row.credits, credits_required: cost },
      );
    case 'account_limit':
      throw dailyLimitReached('conta', row.daily_limit!, row.spent!);
    case 'key_limit':
      throw dailyLimitReached('chave de API', row.daily_limit!, row.spent!);
  }
}

const dailyLimitReached = (owner: string, limit: number, spent: number) =>
  paymentRequired(
    `Limite diário de gastos da ${owner} atingido: ${spent} de ${limit} créditos gastos hoje (UTC).`,
    'DAILY_LIMIT_REACHED',
    { daily_credit_limit: limit, spent_today: spent },
  );

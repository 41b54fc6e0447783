import { sql } from 'kysely';
import type { Principal } from '../principal.js';
import type { Database } from '../db/database.js';
import { prepared } from '../db/prepared-statements.js';
import type { SearchKind } from '../db/schema.js';
import { paymentRequired, unauthenticated } from '../errors.js';
import { BatchLanes } from './batch-lanes.js';
import { insufficientCredits } from './out-of-credits.js';
import type { Logger } from '../logger.js';

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
export async function spentToday(db: Database, accountId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select(spentOn(utcDay(now)).as('spent'))
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.spent);
}

interface ChargeRow {
  status: 'ok' | 'insufficient' | 'account_limit' | 'key_limit' | 'revoked_key' | 'revoked_session';
  credits: number | null;
  search_id: string | null;
  daily_limit: number | null;
  spent: number | null;
}

/** A search to record, as record_searches() (sql/0044) reads it. */
interface SearchRecordRow {
  account_id: string;
  api_key_id: string | null;
  session_id: string | null;
  cost: number;
  /** the plan's daily credits, which bound the account's own daily limit (sql/0027); null: none */
  plan_daily_credits: number | null;
  day: string;
  now: string;
  kind: SearchKind;
  query: Record<string, unknown>;
  summary: string;
  total: number;
  page: number;
  per_page: number;
  token_status: string;
}

export interface SearchRecorder {
  /**
   * Records a search and charges its cost: the history row, and for a cost above 0 the debit, the
   * daily counters and the ledger row, or nothing. 402 when the balance or a daily limit forbids it.
   */
  record(principal: Principal, cost: number, search: SearchRecord, now: Date): Promise<ChargeOutcome>;
  /**
   * The same, alone (not batched) inside the caller's transaction: what the caller writes there
   * commits with the charge or not at all (an Idempotency-Key's stored response).
   */
  recordIn(
    trx: Database,
    principal: Principal,
    cost: number,
    search: SearchRecord,
    now: Date,
  ): Promise<ChargeOutcome>;
}

/**
 * How long a batch of every account's searches waits for a row another transaction holds before it
 * is written account by account instead. Other API processes' batches hold an account's row for
 * the few milliseconds of their own; far longer means an account deleted or an operator's long
 * transaction, which must not hold up every other account's searches.
 */
const SHARED_BATCH_LOCK_WAIT = '500ms';
/** PostgreSQL's lock_not_available: a lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Charges are written by the charge_searches() SQL function (sql/0026, sql/0027, sql/0044): it locks the
 * account and key rows, checks the balance and both daily limits on them, and writes the debit, the
 * counters, the history and the ledger rows, or nothing, for each charge. Concurrent charges of one
 * account queue on its row, so they can never overspend. A key revoked, or a session ended, since the
 * request looked it up is refused (401). Free searches only write their history row.
 *
 * Searches of every account that arrive while a batch is being written go together in the next one,
 * through record_searches() (sql/0044): one round trip and one commit, so one WAL flush shared by
 * every request in it, each charge still decided as if it came alone, after the ones before it of
 * the same account and credential. An idle process sends a search at once. Every request still
 * waits until its own rows are committed; a batch that fails fails every request in it (what fails
 * one account's searches alone, a key or an account gone, is a refusal, not a failure). A batch
 * that finds an account's row held by another transaction for long (SHARED_BATCH_LOCK_WAIT) writes
 * nothing and is written account by account instead, the held account alone until it is free.
 */
export function createSearchRecorder(
  db: Database,
  { purchases, logger }: { purchases: 'on' | 'off'; logger: Logger },
): SearchRecorder {
  const recordSearches = async (batch: SearchRecordRow[], lockTimeout: string | null) =>
    (
      await sql<ChargeRow>`${prepared}
        select * from record_searches(${JSON.stringify(batch)}::jsonb, ${lockTimeout})`.execute(db)
    ).rows;
  // Accounts written apart, each in a lane of its own: those of a shared batch that waited too long
  // for a row lock. An account stays apart while its lane is busy.
  const apart = new BatchLanes<SearchRecordRow, ChargeRow>((_account, batch) => recordSearches(batch, null));
  const writeApart = (row: SearchRecordRow) => apart.submit(row.account_id, row);
  const writeTogether = async (rows: SearchRecordRow[]) => {
    if (rows.length === 0) return [];
    try {
      return await recordSearches(rows, SHARED_BATCH_LOCK_WAIT);
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
      // nothing was written: every account of the batch apart, so only the held one waits
      const accounts = new Set(rows.map((row) => row.account_id));
      logger.warn(
        { accounts: accounts.size, searches: rows.length, waited: SHARED_BATCH_LOCK_WAIT },
        'searches waited for an account row another transaction holds: written account by account',
      );
      return rows.map(writeApart);
    }
  };
  const shared = new BatchLanes<SearchRecordRow, ChargeRow>(async (_lane, batch) => {
    const setApart = batch.map((row) => apart.busy(row.account_id));
    const written = await writeTogether(batch.filter((_, i) => !setApart[i]));
    let next = 0;
    return batch.map((row, i) => (setApart[i] ? writeApart(row) : written[next++]!));
  });

  const rowOf = (principal: Principal, cost: number, search: SearchRecord, now: Date): SearchRecordRow => ({
    account_id: principal.accountId,
    api_key_id: principal.apiKeyId,
    session_id: principal.sessionId,
    cost,
    plan_daily_credits: principal.plan.dailyCredits,
    day: utcDay(now),
    now: now.toISOString(),
    kind: search.kind,
    query: search.query,
    summary: search.summary,
    total: search.total,
    page: search.page,
    per_page: search.perPage,
    token_status: search.tokenStatus,
  });

  return {
    async record(principal, cost, search, now) {
      // one lane: every account's searches share a batch (and its commit)
      return chargeOutcome(await shared.submit('', rowOf(principal, cost, search, now)), cost, purchases);
    },

    async recordIn(trx, principal, cost, search, now) {
      const batch = JSON.stringify([rowOf(principal, cost, search, now)]);
      const recorded = await sql<ChargeRow>`${prepared}
        select * from record_searches(${batch}::jsonb)`.execute(trx);
      return chargeOutcome(recorded.rows[0]!, cost, purchases);
    },
  };
}

function chargeOutcome(row: ChargeRow, cost: number, purchases: 'on' | 'off'): ChargeOutcome {
  switch (row.status) {
    case 'ok':
      return { creditsRemaining: row.credits!, searchId: row.search_id! };
    case 'insufficient':
      throw insufficientCredits(cost, row.credits!, purchases);
    case 'account_limit':
      throw dailyLimitReached('conta', row.daily_limit!, row.spent!);
    case 'key_limit':
      throw dailyLimitReached('chave de API', row.daily_limit!, row.spent!);
    case 'revoked_key':
      // revoked after this process looked it up (see CredentialCache): nothing charged, nothing shown
      throw unauthenticated('Chave de API inválida ou revogada.', 'INVALID_API_KEY');
    case 'revoked_session':
      throw unauthenticated('Token de acesso inválido ou revogado.', 'INVALID_TOKEN');
  }
}

const dailyLimitReached = (owner: string, limit: number, spent: number) =>
  paymentRequired(
    `Limite diário de gastos da ${owner} atingido: ${spent} de ${limit} créditos gastos hoje (UTC).`,
    'DAILY_LIMIT_REACHED',
    { daily_credit_limit: limit, spent_today: spent },
  );

import type { Principal } from '../principal.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { invalid } from '../errors.js';
import { creditHistory, type HistoryEntry, type HistoryFilter } from './history.js';
import { spentToday } from './ledger.js';

export interface CreditBalance {
  credits: number;
  /** what the account may spend a day: the lower of its own limit and its plan's; null = none */
  dailyCreditLimit: number | null;
  /** spent today (UTC day) */
  spentToday: number;
}

/** What an account holds and has spent (the Bearer-only /data/credits routes). */
export interface CreditsService {
  balance(owner: Principal): Promise<CreditBalance>;
  /** a page of the account's credit movements and searches, newest first; 400 when from is not before to */
  history(owner: Principal, filter: HistoryFilter): Promise<{ total: number; entries: HistoryEntry[] }>;
}

/** The lower of two limits, where null is none. */
const lowerLimit = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

export function createCreditsService(db: Database, clock: Clock): CreditsService {
  return {
    async balance(owner) {
      const account = await db
        .selectFrom('accounts')
        .select(['credits', 'daily_credit_limit'])
        .where('id', '=', owner.accountId)
        .executeTakeFirstOrThrow();
      return {
        credits: account.credits,
        dailyCreditLimit: lowerLimit(account.daily_credit_limit, owner.plan.dailyCredits),
        spentToday: await spentToday(db, owner.accountId, clock.now()),
      };
    },
    history(owner, filter) {
      if (filter.from && filter.to && filter.from >= filter.to)
        throw invalid('O parâmetro from deve ser anterior a to.', 'INVALID_DATE_RANGE');
      return creditHistory(db, owner.accountId, filter);
    },
  };
}

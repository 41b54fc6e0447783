import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';

/** accounts.credits is an integer column */
const MAX_BALANCE = 2_147_483_647;

export interface CreditAdjustment {
  before: number;
  balance: number;
}

/**
 * Moves an account's credits outside a search or a payment (an operator's grant or correction, the
 * demo account's extra credits) and writes its `adjustment` ledger row with the reason, in one
 * transaction: the ledger's deltas keep adding up to the balance. The account's row is locked
 * first, as every charge locks it (sql/0027), so a search charged meanwhile waits and then sees the
 * new balance. A balance never goes below zero: a correction that would take more than it holds
 * changes nothing (400 CREDITS_BELOW_ZERO).
 */
export async function adjustCredits(
  db: Database,
  accountId: string,
  delta: number,
  options: { reason: string | null; within?: Transaction<DB>; now?: Date },
): Promise<CreditAdjustment> {
  const now = options.now ?? new Date();
  const run = async (trx: Transaction<DB>): Promise<CreditAdjustment> => {
    const account = await trx
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', accountId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!account) throw notFound('Conta não encontrada.', 'ACCOUNT_NOT_FOUND');
    const balance = account.credits + delta;
    if (balance < 0) {
      throw invalid(
        `Não é possível tirar ${-delta} créditos a um saldo de ${account.credits}: o saldo não pode ficar abaixo de 0. Nada foi alterado.`,
        'CREDITS_BELOW_ZERO',
        { credits: account.credits },
      );
    }
    if (balance > MAX_BALANCE) {
      throw invalid(
        `Um saldo de ${account.credits} mais ${delta} créditos passa do máximo (${MAX_BALANCE}). Nada foi alterado.`,
        'CREDITS_ABOVE_MAXIMUM',
        { credits: account.credits },
      );
    }
    await trx
      .updateTable('accounts')
      .set({ credits: balance, updated_at: now })
      .where('id', '=', accountId)
      .execute();
    await trx
      .insertInto('credit_ledger')
      .values({
        account_id: accountId,
        kind: 'adjustment',
        delta,
        balance_after: balance,
        reason: options.reason,
        created_at: now,
      })
      .execute();
    return { before: account.credits, balance };
  };
  return options.within ? run(options.within) : db.transaction().execute(run);
}

import type { Database } from '../db/database.js';
import type { LedgerKind } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';

/** accounts.credits is an integer column */
const MAX_BALANCE = 2_147_483_647;

export interface CreditMovement {
  accountId: string;
  /** credits added (positive) or taken (negative) */
  delta: number;
  kind: Exclude<LedgerKind, 'search' | 'stats'>;
  /** why, for a person reading the ledger (an operator's grant or correction) */
  reason?: string | null;
  /** the payment that bought (or, refunded, took back) the credits */
  paymentId?: string;
  /**
   * taking credits back, take at most what the account holds (a refund: credits already spent stay
   * spent) instead of refusing a balance below zero
   */
  atMostHeld?: boolean;
  now: Date;
}

export interface MovedCredits {
  before: number;
  balance: number;
  /** what was moved: the delta, or less when `atMostHeld` met a smaller balance */
  moved: number;
}

/**
 * The one way credits move outside a search's charge (sign-up, a purchase, a refund, an operator's
 * grant or correction, the demo account): the balance changes and its ledger row is written in the
 * caller's transaction, so the ledger's deltas keep adding up to the balance. The account's row is
 * locked first, as every charge locks it (sql/0027): a search charged meanwhile waits and then sees
 * the new balance. A balance never goes below zero (400 CREDITS_BELOW_ZERO, nothing changed) nor
 * past the column's maximum; a movement of nothing writes nothing.
 */
export async function moveCredits(trx: Database, movement: CreditMovement): Promise<MovedCredits> {
  const { accountId, now } = movement;
  const account = await trx
    .selectFrom('accounts')
    .select('credits')
    .where('id', '=', accountId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!account) throw notFound('Conta não encontrada.', 'ACCOUNT_NOT_FOUND');
  const moved = movement.atMostHeld ? Math.max(movement.delta, -account.credits) : movement.delta;
  const balance = account.credits + moved;
  if (balance < 0) {
    throw invalid(
      `Não é possível tirar ${-moved} créditos a um saldo de ${account.credits}: o saldo não pode ficar abaixo de 0. Nada foi alterado.`,
      'CREDITS_BELOW_ZERO',
      { credits: account.credits },
    );
  }
  if (balance > MAX_BALANCE) {
    throw invalid(
      `Um saldo de ${account.credits} mais ${moved} créditos passa do máximo (${MAX_BALANCE}). Nada foi alterado.`,
      'CREDITS_ABOVE_MAXIMUM',
      { credits: account.credits },
    );
  }
  if (moved === 0) return { before: account.credits, balance, moved };
  await trx
    .updateTable('accounts')
    .set({ credits: balance, updated_at: now })
    .where('id', '=', accountId)
    .execute();
  await trx
    .insertInto('credit_ledger')
    .values({
      account_id: accountId,
      kind: movement.kind,
      delta: moved,
      balance_after: balance,
      reason: movement.reason ?? null,
      payment_id: movement.paymentId ?? null,
      created_at: now,
    })
    .execute();
  return { before: account.credits, balance, moved };
}

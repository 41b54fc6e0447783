import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { conflict, notFound } from '../errors.js';
import type { AccountChanges } from './account.schemas.js';
import type { NewAccount } from './auth.schemas.js';
import { moveCredits } from '../credits/credit-movements.js';
import { hashPassword, type ScryptParameters } from './credentials.js';
import { assertWithinPlan } from './plans.js';
import type { Principal } from '../principal.js';

/** Credits every new account starts with (spec: "Free credits at registration: 50"). */
export const SIGNUP_CREDITS = 50;

export interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  credits: number;
  daily_credit_limit: number | null;
  created_at: Date;
}

/** One spelling per address: trimmed, lower-case, Unicode NFC ("é" typed as e + accent is "é"). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase().normalize('NFC');

export const emailTaken = () => conflict('Já existe uma conta com este e-mail.', 'EMAIL_TAKEN');

/** Whether an account holds this (normalized) e-mail. */
export async function emailInUse(db: Database, email: string): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

/** The account holding an e-mail, however it is typed (an operator's commands look accounts up so). */
export async function findAccountByEmail(
  db: Database,
  email: string,
): Promise<{ id: string; email: string; credits: number } | undefined> {
  return db
    .selectFrom('accounts')
    .select(['id', 'email', 'credits'])
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
}

/**
 * Creates an account holding SIGNUP_CREDITS, with its `signup` ledger row in the same transaction.
 * A taken e-mail (any case) is a 409.
 */
export async function createAccount(
  db: Database,
  input: NewAccount,
  options: {
    scrypt?: ScryptParameters;
    /** how the password is hashed (the API: in its turn, see PasswordWork); default: at once */
    hash?: (password: string) => Promise<string>;
    within?: Database;
    /** the service clock's time */ now?: Date;
  } = {},
): Promise<AccountRow> {
  const passwordHash = await (options.hash ?? ((p) => hashPassword(p, options.scrypt)))(input.password);
  const run = async (trx: Database) => {
    const account = await trx
      .insertInto('accounts')
      .values({
        email: normalizeEmail(input.email),
        name: input.name ?? null,
        password_hash: passwordHash,
        credits: 0,
        ...(options.now ? { created_at: options.now, updated_at: options.now } : {}),
      })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returning(['id', 'email', 'name', 'credits', 'daily_credit_limit', 'created_at'])
      .executeTakeFirst();
    if (!account) throw emailTaken();
    const { balance } = await moveCredits(trx, {
      accountId: account.id,
      delta: SIGNUP_CREDITS,
      kind: 'signup',
      now: options.now ?? new Date(),
    });
    return { ...account, credits: balance };
  };
  return options.within ? run(options.within) : db.transaction().execute(run);
}

const ACCOUNT_COLUMNS = ['id', 'email', 'name', 'credits', 'daily_credit_limit', 'created_at'] as const;

const accountNotFound = () => notFound('Conta não encontrada.', 'ACCOUNT_NOT_FOUND');

/** What the holder of a Bearer session reads and changes of their account (GET and PATCH /account). */
export interface AccountService {
  get(owner: Principal): Promise<AccountRow>;
  /** the daily credit limit within the plan (400 LIMIT_ABOVE_PLAN); a blank name is none */
  update(owner: Principal, changes: AccountChanges): Promise<AccountRow>;
}

export function createAccountService(db: Database, clock: Clock): AccountService {
  return {
    async get(owner) {
      const account = await db
        .selectFrom('accounts')
        .select(ACCOUNT_COLUMNS)
        .where('id', '=', owner.accountId)
        .executeTakeFirst();
      // A session or key outliving its account (deleted by an operator) finds nothing.
      if (!account) throw accountNotFound();
      return account;
    },
    async update(owner, changes) {
      assertWithinPlan(owner.plan, { daily_credit_limit: changes.daily_credit_limit });
      const account = await db
        .updateTable('accounts')
        .set({
          ...changes,
          ...(typeof changes.name === 'string' ? { name: changes.name.trim() || null } : {}),
          updated_at: clock.now(),
        })
        .where('id', '=', owner.accountId)
        .returning(ACCOUNT_COLUMNS)
        .executeTakeFirst();
      if (!account) throw accountNotFound();
      return account;
    },
  };
}

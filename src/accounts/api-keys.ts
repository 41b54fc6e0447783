import { sql, type RawBuilder } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { conflict, invalid, notFound } from '../errors.js';
import type { ApiKeyChanges, NewApiKey } from './api-keys.schemas.js';
import type { CredentialCache } from './credential-cache.js';
import { newApiKey } from './credentials.js';
import { assertWithinPlan } from './plans.js';
import type { AccountPlan, Principal, Scope } from '../principal.js';

/** What an owner does with the keys of their account (the Bearer-only /api-keys routes). */
export interface ApiKeysService {
  issue(owner: Principal, input: NewApiKey): Promise<CreatedApiKey>;
  list(owner: Principal): Promise<ApiKeyView[]>;
  /** changes a key's name or limits; every API process stops trusting its copy of the key */
  update(owner: Principal, keyId: string, changes: ApiKeyChanges): Promise<ApiKeyView>;
  /** revokes a key; every API process stops accepting it */
  revoke(owner: Principal, keyId: string): Promise<ApiKeyView>;
}

/** What an owner sees of a key: never the key itself nor its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  daily_credit_limit: number | null;
  scopes: Scope[];
  seller_id: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface CreatedApiKey {
  id: string;
  /** shown once; only its SHA-256 is stored */
  key: string;
  prefix: string;
  name: string;
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  daily_credit_limit: number | null;
  scopes: Scope[];
  seller_id: string | null;
  created_at: Date;
}

/** A key's name as stored: trimmed; a blank one is refused. */
function keyName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid('O campo corpo.name não pode estar em branco.', 'VALIDATION_ERROR');
  return trimmed;
}

/**
 * Writes a new key as asked, without the owner's checks (plan, number of keys): the first key of a
 * registration, the demo's and the fixtures'. An owner's keys go through ApiKeysService.issue.
 */
export async function createApiKey(
  db: Database,
  accountId: string,
  input: NewApiKey,
  clock?: Clock,
): Promise<CreatedApiKey> {
  const { key, hash, displayPrefix } = newApiKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      account_id: accountId,
      name: keyName(input.name),
      prefix: displayPrefix,
      key_hash: hash,
      rate_limit_per_minute: input.rate_limit_per_minute ?? null,
      rate_limit_per_hour: input.rate_limit_per_hour ?? null,
      daily_credit_limit: input.daily_credit_limit ?? null,
      scopes: input.scopes ?? ['search'],
      seller_id: input.seller_id ?? null,
      ...(clock ? { created_at: clock.now() } : {}),
    })
    .returning([
      'id',
      'prefix',
      'name',
      'rate_limit_per_minute',
      'rate_limit_per_hour',
      'daily_credit_limit',
      'scopes',
      'seller_id',
      'created_at',
    ])
    .executeTakeFirstOrThrow();
  return { ...row, key };
}

/**
 * A key changed or revoked is announced (CredentialCache.changed) by the service itself, so no
 * caller can change a key and leave other processes trusting their copy of it.
 */
export function createApiKeysService(
  db: Database,
  clock: Clock,
  credentials: CredentialCache,
  maxKeysPerAccount: number,
): ApiKeysService {
  return {
    issue: (owner, input) =>
      issueApiKey(db, owner.accountId, input, { plan: owner.plan, maxKeys: maxKeysPerAccount, clock }),
    list: (owner) => listApiKeys(db, owner.accountId),
    async update(owner, keyId, changes) {
      const key = await updateApiKey(db, owner.accountId, keyId, changes, owner.plan);
      await credentials.changed({ apiKeyId: key.id });
      return key;
    },
    async revoke(owner, keyId) {
      const key = await revokeApiKey(db, owner.accountId, keyId, clock.now());
      await credentials.changed({ apiKeyId: key.id });
      return key;
    },
  };
}

/**
 * Creates a key for its owner (POST /api-keys): its limits within the account's plan (400
 * LIMIT_ABOVE_PLAN) and at most `maxKeys` live (non-revoked) keys per account (409
 * API_KEY_LIMIT_REACHED). The count and the insert happen under the account's row lock (the lock
 * every writer of the account takes first, sql/0026), so keys created at once cannot pass the cap.
 */
async function issueApiKey(
  db: Database,
  accountId: string,
  input: NewApiKey,
  rules: { plan: AccountPlan; maxKeys: number; clock: Clock },
): Promise<CreatedApiKey> {
  assertWithinPlan(rules.plan, input);
  assertScopes(input);
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
    if (input.seller_id) {
      const seller = await trx
        .selectFrom('vendors')
        .select('id')
        .where('id', '=', input.seller_id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!seller) throw notFound('Vendedor não encontrado nesta conta (seller_id).', 'SELLER_NOT_FOUND');
    }
    const { live } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string>().as('live'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(live) >= rules.maxKeys) {
      throw conflict(
        `Esta conta já tem ${live} chaves de API ativas, o máximo permitido é ${rules.maxKeys}. Revogue uma que já não use (DELETE /api-keys/:id) antes de criar outra.`,
        'API_KEY_LIMIT_REACHED',
      );
    }
    return createApiKey(trx, accountId, input, rules.clock);
  });
}

/** A key that writes stock names its seller, and only such a key does. */
function assertScopes(input: NewApiKey): void {
  const writes = (input.scopes ?? []).includes('stock:write');
  if (writes && !input.seller_id) {
    throw invalid(
      'Uma chave com o âmbito stock:write tem de indicar o vendedor (seller_id).',
      'VALIDATION_ERROR',
    );
  }
  if (!writes && input.seller_id) {
    throw invalid('seller_id só se indica com o âmbito stock:write (scopes).', 'VALIDATION_ERROR');
  }
}

const VIEW_COLUMNS = [
  'id',
  'name',
  'prefix',
  'rate_limit_per_minute',
  'rate_limit_per_hour',
  'daily_credit_limit',
  'scopes',
  'seller_id',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

const keyNotFound = () =>
  notFound(
    'Chave de API não encontrada ou revogada (uma chave revogada não pode ser alterada).',
    'API_KEY_NOT_FOUND',
  );

/** The account's keys, newest first, revoked ones included (they say when). */
function listApiKeys(db: Database, accountId: string): Promise<ApiKeyView[]> {
  return db
    .selectFrom('api_keys')
    .select(VIEW_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Changes a key of this account, its limits within the account's plan (400 LIMIT_ABOVE_PLAN);
 * another account's key (or none) is a 404, so ids reveal nothing.
 */
async function updateApiKey(
  db: Database,
  accountId: string,
  keyId: string,
  changes: ApiKeyChanges,
  plan: AccountPlan,
): Promise<ApiKeyView> {
  assertWithinPlan(plan, changes);
  return changeOwnKey(
    db,
    accountId,
    keyId,
    changes.name === undefined ? changes : { ...changes, name: keyName(changes.name) },
  );
}

/** Revokes at once (the next request with the key gets 401); revoking twice keeps the first time. */
async function revokeApiKey(db: Database, accountId: string, keyId: string, now: Date): Promise<ApiKeyView> {
  return changeOwnKey(db, accountId, keyId, { revoked_at: sql<Date>`coalesce(revoked_at, ${now})` });
}

type KeyUpdate = ApiKeyChanges | { revoked_at: RawBuilder<Date> };

/**
 * Updates a key only if this account owns it; otherwise (or if none) a 404, so ids reveal nothing.
 * A revoked key is final: it can be revoked again (nothing changes) but not edited (404).
 */
async function changeOwnKey(
  db: Database,
  accountId: string,
  keyId: string,
  set: KeyUpdate,
): Promise<ApiKeyView> {
  const row = await db
    .updateTable('api_keys')
    .set(set)
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .$if(!('revoked_at' in set), (q) => q.where('revoked_at', 'is', null))
    .returning(VIEW_COLUMNS)
    .executeTakeFirst();
  if (!row) throw keyNotFound();
  return row;
}

import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { prepared } from '../db/prepared-statements.js';
import { unauthenticated } from '../errors.js';
import type { CredentialCache, KnownCredential } from './credential-cache.js';
import { sha256 } from '../crypto-text.js';
import { API_KEY_PREFIX, BEARER_PREFIX } from './credentials.js';
import { resolvePlan } from './plans.js';
import {
  SCOPES,
  UnknownCredentialError,
  type AccountPlan,
  type Authenticator,
  type Principal,
  type Scope,
} from '../principal.js';

/** last_used_at is written at most this often per key, so a busy key does not write on every request */
const LAST_USED_GRANULARITY_MS = 60_000;

/** The plan's columns, read with each credential (an account without a plan row reads nulls). */
const PLAN_COLUMNS = [
  'p.rate_limit_per_minute as plan_per_minute',
  'p.rate_limit_per_hour as plan_per_hour',
  'p.daily_credits as plan_daily_credits',
] as const;

const planOf = (
  row: { plan_per_minute: number | null; plan_per_hour: number | null; plan_daily_credits: number | null },
  defaults: AccountPlan,
) =>
  resolvePlan(
    {
      rate_limit_per_minute: row.plan_per_minute,
      rate_limit_per_hour: row.plan_per_hour,
      daily_credits: row.plan_daily_credits,
    },
    defaults,
  );

/**
 * planDefaults: the configured plan of an account without its own (RATE_LIMIT_PER_MINUTE,
 * RATE_LIMIT_PER_HOUR, PLAN_DAILY_CREDITS).
 */
export function createAuthenticator(
  db: Database,
  clock: Clock,
  cache: CredentialCache,
  planDefaults: AccountPlan,
): Authenticator {
  /** Writes last_used_at at most once a minute per key and process; bookkeeping that never fails a request. */
  function touch(known: KnownCredential, now: Date): void {
    if (known.lastUsedAt && now.getTime() - known.lastUsedAt.getTime() <= LAST_USED_GRANULARITY_MS) return;
    known.lastUsedAt = now;
    void db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', known.principal.apiKeyId!)
      .execute()
      .catch(() => {});
  }

  async function lookUpApiKey(hash: Buffer): Promise<KnownCredential> {
    const row = await db
      .selectFrom('api_keys as k')
      .leftJoin('account_plans as p', 'p.account_id', 'k.account_id')
      .modifyFront(prepared)
      .select([
        'k.id',
        'k.account_id',
        'k.rate_limit_per_minute',
        'k.rate_limit_per_hour',
        'k.daily_credit_limit',
        'k.last_used_at',
        'k.scopes',
        'k.seller_id',
        ...PLAN_COLUMNS,
      ])
      .where('k.key_hash', '=', hash)
      .where('k.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new UnknownCredentialError('Chave de API inválida ou revogada.', 'INVALID_API_KEY');
    const principal: Principal = {
      accountId: row.account_id,
      via: 'api_key',
      apiKeyId: row.id,
      sessionId: null,
      rateLimitPerMinute: row.rate_limit_per_minute,
      rateLimitPerHour: row.rate_limit_per_hour,
      keyDailyCreditLimit: row.daily_credit_limit,
      plan: planOf(row, planDefaults),
      scopes: row.scopes as Scope[],
      sellerId: row.seller_id,
    };
    return { principal, expiresAt: null, lastUsedAt: row.last_used_at };
  }

  async function lookUpSession(hash: Buffer): Promise<KnownCredential> {
    const row = await db
      .selectFrom('sessions as s')
      .leftJoin('account_plans as p', 'p.account_id', 's.account_id')
      .modifyFront(prepared)
      .select(['s.id', 's.account_id', 's.expires_at', ...PLAN_COLUMNS])
      .where('s.token_hash', '=', hash)
      .where('s.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new UnknownCredentialError('Token de acesso inválido ou revogado.', 'INVALID_TOKEN');
    const principal: Principal = {
      accountId: row.account_id,
      via: 'bearer',
      apiKeyId: null,
      sessionId: row.id,
      rateLimitPerMinute: null,
      rateLimitPerHour: null,
      keyDailyCreditLimit: null,
      plan: planOf(row, planDefaults),
      scopes: SCOPES,
      sellerId: null,
    };
    return { principal, expiresAt: row.expires_at, lastUsedAt: null };
  }

  async function byApiKey(key: string): Promise<Principal> {
    if (!key.startsWith(API_KEY_PREFIX)) throw unauthenticated('Chave de API inválida.', 'INVALID_API_KEY');
    const hash = sha256(key);
    const known = await cache.recall(`key:${hash.toString('base64')}`, () => lookUpApiKey(hash));
    touch(known, clock.now());
    return known.principal;
  }

  /** fresh: looked up even when kept (the Bearer-only routes: keys, purchases, the account) */
  async function byBearer(token: string, fresh: boolean): Promise<Principal> {
    if (!token.startsWith(BEARER_PREFIX)) throw unauthenticated('Token de acesso inválido.', 'INVALID_TOKEN');
    const hash = sha256(token);
    const known = await cache.recall(`session:${hash.toString('base64')}`, () => lookUpSession(hash), {
      fresh,
    });
    if (known.expiresAt!.getTime() <= clock.now().getTime()) {
      throw unauthenticated(
        'Token de acesso expirado. Inicie sessão novamente em POST /auth/login.',
        'TOKEN_EXPIRED',
      );
    }
    return known.principal;
  }

  return {
    async authenticate(credentials, accepted) {
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization ?? '')?.[1];
      if (credentials.authorization && !bearer) {
        throw unauthenticated('Cabeçalho Authorization inválido: use "Bearer <token>".', 'INVALID_TOKEN');
      }
      if (accepted === 'bearer' && !bearer) {
        throw unauthenticated(
          credentials.apiKey
            ? 'Este endpoint requer um token Bearer (obtido em POST /auth/login); a chave de API não é aceite aqui.'
            : 'Autenticação em falta: envie Authorization: Bearer <token>.',
          credentials.apiKey ? 'BEARER_REQUIRED' : 'UNAUTHORIZED',
        );
      }
      if (!credentials.apiKey && !bearer) {
        throw unauthenticated('Autenticação em falta: envie X-API-Key ou Authorization: Bearer <token>.');
      }
      // Every credential presented must hold, and for one account: an invalid one is a 401 even
      // beside a valid one (it is never silently ignored).
      // Both looked up at once; when both fail, the key's error is the one reported, always.
      const [keyLookup, sessionLookup] = await Promise.allSettled([
        credentials.apiKey ? byApiKey(credentials.apiKey) : null,
        bearer ? byBearer(bearer, accepted === 'bearer') : null,
      ]);
      if (keyLookup.status === 'rejected') throw keyLookup.reason;
      if (sessionLookup.status === 'rejected') throw sessionLookup.reason;
      const [viaKey, viaSession] = [keyLookup.value, sessionLookup.value];
      if (viaKey && viaSession && viaKey.accountId !== viaSession.accountId) {
        throw unauthenticated(
          'A chave de API e o token Bearer pertencem a contas diferentes: envie apenas uma credencial.',
          'CREDENTIALS_MISMATCH',
        );
      }
      // An API key carries the key's own limits, so it is the principal where it is accepted.
      return accepted === 'bearer' ? viaSession! : (viaKey ?? viaSession!);
    },
  };
}

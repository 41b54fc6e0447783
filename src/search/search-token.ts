import { createHmac, timingSafeEqual } from 'node:crypto';
import { packContinuation, unpackContinuation, type Continuation } from './search-continuation.js';

/** A search token lets its account page through one search for free for 10 minutes. */
export const SEARCH_TOKEN_TTL_MS = 10 * 60 * 1000;

export type TokenStatus = 'valid' | 'expired' | 'invalid' | 'mismatch' | 'none';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** A token with where its search's next page starts (st1, without, is still read). */
const VERSION = 'st2';
const FORMER_VERSION = 'st1';

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** When a token issued now stops being valid: whole seconds, rounded up, never less than 10 minutes. */
export function searchTokenExpiry(now: Date): Date {
  return new Date(Math.ceil((now.getTime() + SEARCH_TOKEN_TTL_MS) / 1000) * 1000);
}

/**
 * Stateless: `st2.<account>.<expiry epoch s>.<fields hash>.<continuation>.<HMAC>`. Nothing is
 * stored, so any API process with the same secret accepts it. The hash binds it to the search
 * fields (not page or per_page), the account id to its owner; the continuation (empty when there is
 * none) says where the next page starts. Every page answered with a token gets a new one with the
 * same expiry: the paging stays bound to the first page's 10 minutes.
 */
export function issueSearchToken(
  secret: string,
  token: { accountId: string; fieldsHash: string; expiresAt: Date; next?: Continuation },
): IssuedToken {
  const payload = [
    VERSION,
    token.accountId,
    String(token.expiresAt.getTime() / 1000),
    token.fieldsHash,
    token.next ? packContinuation(token.next) : '',
  ].join('.');
  return { token: `${payload}.${sign(secret, payload)}`, expiresAt: token.expiresAt };
}

export interface TokenCheck {
  status: TokenStatus;
  /** set when valid */
  expiresAt?: Date;
  /** set when valid and the token says where its search's next page starts */
  next?: Continuation;
}

export function checkSearchToken(
  secret: string,
  token: string | undefined,
  accountId: string,
  fieldsHash: string,
  now: Date,
): TokenCheck {
  if (token === undefined) return { status: 'none' };
  const parts = token.split('.');
  const signed =
    (parts.length === 6 && parts[0] === VERSION) || (parts.length === 5 && parts[0] === FORMER_VERSION);
  if (!signed) return { status: 'invalid' };
  const expected = Buffer.from(sign(secret, parts.slice(0, -1).join('.')));
  const given = Buffer.from(parts[parts.length - 1]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { status: 'invalid' };
  const [, account, expiry, hash, continuation] = parts as [string, string, string, string, string?];
  // A genuine token of another account, or of other search fields, is not valid for this search.
  if (account !== accountId || hash !== fieldsHash) return { status: 'mismatch' };
  const expiresAt = new Date(Number(expiry) * 1000);
  if (!(expiresAt.getTime() > now.getTime())) return { status: 'expired' };
  return { status: 'valid', expiresAt, ...(continuation ? { next: unpackContinuation(continuation) } : {}) };
}

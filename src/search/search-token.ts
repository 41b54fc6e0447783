import { createHmac, timingSafeEqual } from 'node:crypto';

/** A search token lets its account page through one search for free for 10 minutes. */
export const SEARCH_TOKEN_TTL_MS = 10 * 60 * 1000;

export type TokenStatus = 'valid' | 'expired' | 'invalid' | 'mismatch' | 'none';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

const VERSION = 'st1';

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/**
 * Stateless: `st1.<account>.<expiry epoch s>.<fields hash>.<HMAC>`. Nothing is stored, so any API
 * process with the same secret accepts it. The hash binds it to the search fields (not page or
 * per_page), the account id to its owner.
 */
export function issueSearchToken(
  secret: string,
  accountId: string,
  fieldsHash: string,
  now: Date,
): IssuedToken {
  // Whole seconds in the token, rounded up: a token is never valid for less than its 10 minutes.
  const expiresAt = new Date(Math.ceil((now.getTime() + SEARCH_TOKEN_TTL_MS) / 1000) * 1000);
  const payload = [VERSION, accountId, String(expiresAt.getTime() / 1000), fieldsHash].join('.');
  return { token: `${payload}.${sign(secret, payload)}`, expiresAt };
}

export interface TokenCheck {
  status: TokenStatus;
  /** set when valid */
  expiresAt?: Date;
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
  if (parts.length !== 5 || parts[0] !== VERSION) return { status: 'invalid' };
  const [, account, expiry, hash, signature] = parts as [string, string, string, string, string];
  const expected = Buffer.from(sign(secret, parts.slice(0, 4).join('.')));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { status: 'invalid' };
  // A genuine token of another account, or of other search fields, is not valid for this search.
  if (account !== accountId || hash !== fieldsHash) return { status: 'mismatch' };
  const expiresAt = new Date(Number(expiry) * 1000);
  if (!(expiresAt.getTime() > now.getTime())) return { status: 'expired' };
  return { status: 'valid', expiresAt };
}

import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { newBearerToken } from './credentials.js';

/** Spec: a Bearer token is valid for 30 days. */
export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 3600 * 1000;

export interface OpenedSession {
  /** shown once; only its SHA-256 is stored */
  token: string;
  expiresAt: Date;
}

export async function openSession(db: Database, accountId: string, clock: Clock): Promise<OpenedSession> {
  const { token, hash } = newBearerToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_MS);
  await db
    .insertInto('sessions')
    .values({ account_id: accountId, token_hash: hash, created_at: now, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

export async function revokeSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

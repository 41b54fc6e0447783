import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { unauthenticated } from '../errors.js';
import type { LoginGuard } from '../limits/abuse-guards.js';
import { normalizeEmail } from './accounts.js';
import type { CredentialCache } from './credential-cache.js';
import { hashPassword, verifyPassword } from './credentials.js';
import type { PasswordWork } from './password-work.js';
import { openSession, revokeSession, type OpenedSession } from './sessions.js';

/** Bearer sessions: opened with an e-mail and password, ended by their holder. */
export interface LoginService {
  login(email: string, password: string, ip: string): Promise<OpenedSession>;
  /** ends a session; every API process stops accepting its token */
  logout(sessionId: string): Promise<void>;
}

/**
 * E-mail + password → a 30-day Bearer token. An unknown e-mail and a wrong password give the
 * same 401 after the same work: an unknown e-mail is checked against a hash made at start-up with
 * the same scrypt cost, so timing reveals nothing either.
 */
export function createLoginService(
  db: Database,
  clock: Clock,
  guard: LoginGuard,
  passwords: PasswordWork,
  credentials: CredentialCache,
): LoginService {
  let decoyHash: Promise<string> | null = null;
  const decoy = () => (decoyHash ??= hashPassword('decoy password for unknown e-mails'));

  return {
    async login(rawEmail, password, ip) {
      const email = normalizeEmail(rawEmail);
      const decoyReady = decoy(); // made once per process, in parallel with the lookup
      await guard.assertAllowed(email, ip);
      const account = await db
        .selectFrom('accounts')
        .select(['id', 'password_hash'])
        .where('email', '=', email)
        .executeTakeFirst();
      const stored = account?.password_hash ?? (await decoyReady);
      const matches = await passwords.run(() => verifyPassword(password, stored));
      if (!account || !matches) {
        await guard.recordFailure(email, ip);
        throw unauthenticated('E-mail ou palavra-passe incorretos.', 'INVALID_CREDENTIALS');
      }
      await guard.recordSuccess(email, ip);
      return openSession(db, account.id, clock);
    },
    async logout(sessionId) {
      await revokeSession(db, sessionId, clock.now());
      await credentials.changed({ sessionId });
    },
  };
}

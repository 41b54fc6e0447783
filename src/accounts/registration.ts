import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { invalid, ServiceError } from '../errors.js';
import type { RegistrationGuard } from '../limits/abuse-guards.js';
import { createAccount, emailInUse, emailTaken, normalizeEmail, type AccountRow } from './accounts.js';
import { createApiKey, type CreatedApiKey } from './api-keys.js';
import type { NewAccount } from './auth.schemas.js';
import { hashPassword } from './credentials.js';
import type { PasswordWork } from './password-work.js';

// Deliberately plain: one @, no spaces, a dot in the domain. Deliverability is the mail's job.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export interface RegistrationService {
  register(input: NewAccount, ip: string): Promise<AccountRow>;
  /** server-to-server onboarding: the account and its first API key in one transaction */
  registerApiUser(input: NewAccount, ip: string): Promise<{ account: AccountRow; apiKey: CreatedApiKey }>;
}

export function createRegistrationService(
  db: Database,
  clock: Clock,
  guard: RegistrationGuard,
  passwords: PasswordWork,
): RegistrationService {
  const hash = (password: string) => passwords.run(() => hashPassword(password));

  function checked(input: NewAccount): NewAccount {
    const email = normalizeEmail(input.email);
    if (!EMAIL.test(email) || email.length > 254) {
      throw invalid('O campo corpo.email não é um endereço de e-mail válido.', 'INVALID_EMAIL');
    }
    // Length alone (10, in the schema) let "          " through.
    if (new Set(input.password).size < 4 || !/\S/.test(input.password)) {
      throw invalid(
        'A palavra-passe é demasiado fraca: use pelo menos 4 caracteres diferentes, não só espaços.',
        'WEAK_PASSWORD',
      );
    }
    const name = input.name?.trim() || null;
    return { email, password: input.password, name };
  }

  /**
   * Counts the registration against the IP first, whatever its outcome: a probe of a taken e-mail
   * (409) uses the allowance up like an account created. Only the service's own failure (busy, a
   * dependency down) gives it back. A taken e-mail is answered before the password is hashed: a
   * probe costs a lookup, not scrypt (two registrations of one new e-mail racing still meet the
   * unique index, after hashing).
   */
  async function guarded<T>(ip: string, email: string, create: () => Promise<T>): Promise<T> {
    await guard.take(ip);
    try {
      if (await emailInUse(db, email)) throw emailTaken();
      return await create();
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind === 'unavailable' || error.kind === 'internal')
        await guard.giveBack(ip);
      throw error;
    }
  }

  return {
    register(input, ip) {
      const account = checked(input);
      return guarded(ip, account.email, () => createAccount(db, account, { hash, now: clock.now() }));
    },
    registerApiUser(input, ip) {
      const account = checked(input);
      return guarded(ip, account.email, () =>
        db.transaction().execute(async (trx) => {
          const created = await createAccount(db, account, { hash, within: trx, now: clock.now() });
          const apiKey = await createApiKey(trx, created.id, { name: 'Chave inicial' }, clock);
          return { account: created, apiKey };
        }),
      );
    },
  };
}

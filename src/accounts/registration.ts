import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { badRequest } from '../http/errors.js';
import type { RegistrationGuard } from '../limits/abuse-guards.js';
import { createAccount, normalizeEmail, type AccountRow, type NewAccount } from './accounts.js';
import { createApiKey, type CreatedApiKey } from './api-keys.js';

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
): RegistrationService {
  function checked(input: NewAccount): NewAccount {
    const email = normalizeEmail(input.email);
    if (!EMAIL.test(email) || email.length > 254) {
      throw badRequest('O campo corpo.email não é um endereço de e-mail válido.', 'INVALID_EMAIL');
    }
    // Length alone (10, in the schema) let "          " through.
    if (new Set(input.password).size < 4 || !/\S/.test(input.password)) {
      throw badRequest(
        'A palavra-passe é demasiado fraca: use pelo menos 4 caracteres diferentes, não só espaços.',
        'WEAK_PASSWORD',
      );
    }
    const name = input.name?.trim() || null;
    return { email, password: input.password, name };
  }

  /** Counts the registration against the IP first; gives it back if no account was created. */
  async function guarded<T>(ip: string, create: () => Promise<T>): Promise<T> {
    await guard.take(ip);
    try {
      return await create();
    } catch (error) {
      await guard.giveBack(ip);
      throw error;
    }
  }

  return {
    register(input, ip) {
      const account = checked(input);
      return guarded(ip, () => createAccount(db, account, { now: clock.now() }));
    },
    registerApiUser(input, ip) {
      const account = checked(input);
      return guarded(ip, () =>
        db.transaction().execute(async (trx) => {
          const created = await createAccount(db, account, { within: trx, now: clock.now() });
          const apiKey = await createApiKey(trx, created.id, { name: 'Chave inicial' }, clock);
          return { account: created, apiKey };
        }),
      );
    },
  };
}

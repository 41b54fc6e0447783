import type { Database } from '../../src/db/database.js';
import { sandboxPayments } from '../../src/payments/create-provider.js';
import { SandboxProvider } from '../../src/payments/sandbox-provider.js';
import type { TestAppOptions } from './test-app.js';

/** The sandbox's signing secret in tests (in a server it is drawn at start and never leaves it). */
export const SANDBOX_SECRET = 'webhook-secret-for-tests-0123456789';
/** PUBLIC_BASE_URL of the payment tests: where checkouts return to (the dashboard). */
export const PUBLIC_BASE = 'http://painel.test';

/** startTestApp options for the sandbox provider with a secret the test signs deliveries with. */
export const sandboxWithKnownSecret = (): Pick<TestAppOptions, 'env' | 'overrides'> => ({
  env: { PUBLIC_BASE_URL: PUBLIC_BASE },
  overrides: { payments: sandboxPayments(new SandboxProvider(PUBLIC_BASE, SANDBOX_SECRET)) },
});

/** The ledger rows a payment wrote (its purchase, a refund's adjustment), oldest first. */
export const paymentLedger = (db: Database, paymentId: string) =>
  db
    .selectFrom('credit_ledger')
    .select(['kind', 'delta'])
    .where('payment_id', '=', paymentId)
    .orderBy('id')
    .execute();

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestAccount, creditsOf, type TestAccount } from '../helpers/accounts-fixture.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { runScript } from '../helpers/run-script.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import type { HistoryAnswer } from '../../web/src/api-types.js';

interface ErrorBody {
  success: false;
  mensagem: string;
  code: string;
  credits_remaining?: number;
}

const REFERENCE = '1K0 615 301 AA'; // stocked in the fixture

// Each run of the command starts tsx and opens the database: slow on a loaded 2-core machine.
describe.skipIf(!TEST_DATABASE_URL)(
  'npm run account:credits, on a server whose purchases are off',
  { timeout: 240_000 },
  () => {
    let app: TestApp;
    let selling: TestApp;
    let holder: TestAccount;
    let run: (...args: string[]) => ReturnType<typeof runScript>;
    beforeAll(async () => {
      app = await startTestApp({ env: { PAYMENT_PROVIDER: 'none' } });
      // the same database behind a server that sells credits (the sandbox checkout)
      selling = await startTestApp({ database: app.database, env: { PAYMENT_PROVIDER: 'sandbox' } });
      await loadStockFixture(app.services.db);
      holder = await createTestAccount(app.services.db, app.clock);
      const env = { DATABASE_URL: app.database.url!, LOG_LEVEL: 'silent' };
      run = (...args) => runScript('account-credits.ts', args, env);
    });
    afterAll(async () => {
      await selling?.close();
      await app?.close();
    });

    const searchWith = (on: TestApp) =>
      on.api.withApiKey(holder.apiKey).post<ErrorBody & { credits_remaining: number }>('/data/search', {
        reference: REFERENCE,
      });

    it('takes credits back (a correction) and gives them, each with its reason in the ledger, printing the balance', async () => {
      const taken = await run(
        '--email',
        holder.email.toUpperCase(),
        '--remove',
        '50',
        '--reason',
        'créditos de boas-vindas dados por engano',
      );
      expect(taken.stderr).toBe('');
      expect(taken.code).toBe(0);
      expect(taken.stdout).toContain(
        `Retirados 50 créditos da conta ${holder.email} (id ${holder.accountId}).`,
      );
      expect(taken.stdout).toMatch(/saldo antes: 50\n {2}saldo agora: 0\n/);
      expect(await creditsOf(app.services.db, holder.accountId)).toBe(0);

      // out of credits, where nothing can be bought: the answer says to ask the operator
      for (const refused of [
        await searchWith(app),
        await app.api
          .withApiKey(holder.apiKey)
          .post<ErrorBody>('/data/search/stats', { reference: REFERENCE }),
      ]) {
        expect(refused.status).toBe(402);
        expect(refused.body.code).toBe('INSUFFICIENT_CREDITS');
        expect(refused.body.credits_remaining).toBe(0);
        expect(refused.body.mensagem).toContain('peça mais créditos ao operador do serviço');
        expect(refused.body.mensagem).not.toContain('/data/credits/packages');
      }
      const purchase = await app.api
        .withBearer(holder.bearer)
        .post<ErrorBody>('/data/credits/purchase', { package_id: 'pro' });
      expect(purchase.status).toBe(503);
      // where credits are sold, the same refusal points to the packages
      const elsewhere = await searchWith(selling);
      expect(elsewhere.status).toBe(402);
      expect(elsewhere.body.mensagem).toContain('Compre créditos em /data/credits/packages.');

      const given = await run('--email', holder.email, '--add', '5', '--reason', 'teste de integração');
      expect(given.code).toBe(0);
      expect(given.stdout).toContain(`Adicionados 5 créditos à conta ${holder.email}`);
      expect(given.stdout).toContain('motivo:      teste de integração');
      expect(given.stdout).toMatch(/saldo agora: 5\n/);
      const search = await searchWith(app);
      expect(search.status).toBe(200);
      expect(search.body.credits_remaining).toBe(4);

      // the movements are in the account's history and its ledger, like any other
      const history = await app.api
        .withBearer(holder.bearer)
        .get<HistoryAnswer>('/data/credits/history?kind=adjustment');
      expect(history.body.results).toEqual([
        expect.objectContaining({ kind: 'adjustment', credits: 5, balance_after: 5 }),
        expect.objectContaining({ kind: 'adjustment', credits: -50, balance_after: 0 }),
      ]);
      const reasons = await app.services.db
        .selectFrom('credit_ledger')
        .select(['kind', 'delta', 'reason'])
        .where('account_id', '=', holder.accountId)
        .where('kind', '=', 'adjustment')
        .orderBy('id')
        .execute();
      expect(reasons).toEqual([
        { kind: 'adjustment', delta: -50, reason: 'créditos de boas-vindas dados por engano' },
        { kind: 'adjustment', delta: 5, reason: 'teste de integração' },
      ]);
      await expectLedgerMatchesBalance(app.services.db, holder.accountId);

      const shown = await run('--email', holder.email);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toBe(`Saldo da conta ${holder.email} (id ${holder.accountId}): 4 créditos.\n`);
    });

    it('refuses to take the balance below 0, a change without a reason, and an unknown e-mail, changing nothing', async () => {
      const before = await creditsOf(app.services.db, holder.accountId);
      const ledgerRows = async () =>
        (
          await app.services.db
            .selectFrom('credit_ledger')
            .select('id')
            .where('account_id', '=', holder.accountId)
            .execute()
        ).length;
      const rows = await ledgerRows();
      // the refusals change nothing, so they run side by side
      const [below, noReason, unknown, both] = await Promise.all([
        run('--email', holder.email, '--remove', String(before + 1), '--reason', 'acerto'),
        run('--email', holder.email, '--add', '10'),
        run('--email', 'ninguem@exemplo.pt', '--add', '10', '--reason', 'x'),
        run('--email', holder.email, '--add', '1', '--remove', '1', '--reason', 'x'),
      ]);
      expect(below.code).toBe(1);
      expect(below.stderr).toContain(
        `Não é possível tirar ${before + 1} créditos a um saldo de ${before}: o saldo não pode ficar abaixo de 0. Nada foi alterado. (CREDITS_BELOW_ZERO)`,
      );
      expect(noReason.code).toBe(1);
      expect(noReason.stderr).toContain('falta o motivo: --reason');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('não existe nenhuma conta com o e-mail ninguem@exemplo.pt');
      expect(both.code).toBe(1);
      expect(both.stderr).toContain('não podem ser usadas juntas');
      expect(await creditsOf(app.services.db, holder.accountId)).toBe(before);
      expect(await ledgerRows()).toBe(rows);
    });
  },
);

describe('npm run account:credits on the embedded database', { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pss-credits-'));
  const email = 'oficina@exemplo.pt';
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  beforeAll(async () => {
    const handle = await openDatabase({ url: null, dataDir });
    try {
      await migrate(handle.db);
      await createAccount(
        handle.db,
        { email, password: 'password-1234' },
        { scrypt: { N: 1024, r: 8, p: 1 } },
      );
    } finally {
      await handle.close();
    }
  });

  it('waits its turn: refused while another process holds DATA_DIR, then gives the credits', async () => {
    const run = () =>
      runScript('account-credits.ts', ['--email', email, '--add', '100', '--reason', 'oferta'], {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
      });
    const holding = await openDatabase({ url: null, dataDir });
    try {
      const refused = await run();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(`está a ser usado por outro processo \\(pid ${process.pid},.*\\(DATA_DIR_IN_USE\\)`, 's'),
      );
    } finally {
      await holding.close();
    }
    const given = await run();
    expect(given.stderr).toBe('');
    expect(given.code).toBe(0);
    expect(given.stdout).toMatch(/saldo antes: 50\n {2}saldo agora: 150\n/);
  });
});

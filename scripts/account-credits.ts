/**
 * npm run account:credits -- --email <e-mail> [--add N | --remove N] [--reason "…"]
 *
 * The operator's command for an account's credits: gives credits (--add) or takes them back
 * (--remove, a correction), with the reason recorded in the account's ledger as an `adjustment`,
 * in the same transaction as the balance (src/credits/credit-adjustments.ts): the movement shows
 * in the account's history like any other. A balance never goes below 0: a correction taking more
 * than the account holds changes nothing. Without --add or --remove it shows the balance. Where
 * purchases are off (PAYMENT_PROVIDER=none, the default with DATABASE_URL), this is how an
 * account gets credits past the 50 of its signup.
 *
 * On the embedded database (no DATABASE_URL: DATA_DIR), run it with the API stopped: the data
 * directory takes one process at a time.
 */
import { InvalidArgumentError, Option } from 'commander';
import { findAccountByEmail, normalizeEmail } from '../src/accounts/accounts.js';
import { loadConfig } from '../src/config.js';
import { moveCredits } from '../src/credits/credit-movements.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import {
  operatorCommand,
  parseCommandLine,
  runOperatorCommand,
  wholeNumber,
} from '../src/operator-command.js';

const MAX_CREDITS = 2_147_483_647;
const MAX_REASON = 500;

const creditCount = wholeNumber(1, MAX_CREDITS);

function reasonText(text: string): string {
  const reason = text.trim();
  if (!reason) throw new InvalidArgumentError('indique o motivo, em texto.');
  if (reason.length > MAX_REASON)
    throw new InvalidArgumentError(`o motivo tem ${reason.length} caracteres; no máximo ${MAX_REASON}.`);
  return reason;
}

const program = operatorCommand(
  'account:credits',
  'Mostra o saldo de uma conta, ou dá-lhe créditos (--add) ou retira-os (--remove) com um motivo.',
)
  .requiredOption('--email <e-mail>', 'e-mail da conta')
  .addOption(new Option('--add <n>', 'créditos a dar').argParser(creditCount).conflicts('remove'))
  .addOption(
    new Option('--remove <n>', 'créditos a retirar (uma correção; o saldo nunca fica abaixo de 0)')
      .argParser(creditCount)
      .conflicts('add'),
  )
  .option(
    '--reason <texto>',
    'o motivo, guardado no histórico da conta (obrigatório com --add e --remove)',
    reasonText,
  );

const shown = (n: number) => n.toLocaleString('pt-PT');

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const options = program.opts<{ email: string; add?: number; remove?: number; reason?: string }>();
  const delta = options.add ?? (options.remove === undefined ? null : -options.remove);
  if (delta !== null && !options.reason) {
    process.stderr.write(
      `Erro: falta o motivo: --reason "…" (fica no histórico da conta), com --${options.add ? 'add' : 'remove'}.\n`,
    );
    return 1;
  }
  if (delta === null && options.reason) {
    process.stderr.write('Erro: --reason só vale com --add ou --remove.\n');
    return 1;
  }

  const config = loadConfig(process.env);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await migrate(database.db);
    const account = await findAccountByEmail(database.db, options.email);
    if (!account) {
      process.stderr.write(`Erro: não existe nenhuma conta com o e-mail ${normalizeEmail(options.email)}.\n`);
      return 1;
    }
    if (delta === null) {
      process.stdout.write(
        `Saldo da conta ${account.email} (id ${account.id}): ${shown(account.credits)} créditos.\n`,
      );
      return 0;
    }
    const moved = await database.db.transaction().execute((trx) =>
      moveCredits(trx, {
        accountId: account.id,
        delta,
        kind: 'adjustment',
        reason: options.reason!,
        now: new Date(),
      }),
    );
    process.stdout.write(
      [
        delta > 0
          ? `Adicionados ${shown(delta)} créditos à conta ${account.email} (id ${account.id}).`
          : `Retirados ${shown(-delta)} créditos da conta ${account.email} (id ${account.id}).`,
        `  motivo:      ${options.reason}`,
        `  saldo antes: ${shown(moved.before)}`,
        `  saldo agora: ${shown(moved.balance)}`,
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await database.close();
  }
}

await runOperatorCommand(main);

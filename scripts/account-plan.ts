/**
 * npm run account:plan -- --email <e-mail> [--per-minute N] [--per-hour N] [--daily-credits N]
 *
 * The operator's command for an account's plan (sql/0027): requests per minute and per hour for the
 * whole account (all its API keys and Bearer sessions together) and credits per day. Without a
 * change it shows the plan. `padrao` returns a value to the configured default
 * (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_PER_HOUR, PLAN_DAILY_CREDITS). Its owner can narrow the plan for
 * a key or the account, never widen it. With REDIS_URL set, every API process applies the change to
 * the next request; without it, within CREDENTIAL_CACHE_SECONDS.
 */
import { InvalidArgumentError } from 'commander';
import { Redis } from 'ioredis';
import { findAccountByEmail, normalizeEmail } from '../src/accounts/accounts.js';
import { announceCredentialChange } from '../src/accounts/credential-cache.js';
import {
  changePlan,
  resolvePlan,
  storedPlan,
  type PlanChanges,
  type StoredPlan,
} from '../src/accounts/plans.js';
import type { AccountPlan } from '../src/principal.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { DEFAULT_REDIS_PREFIX } from '../src/services.js';
import { operatorCommand, parseCommandLine, runOperatorCommand } from '../src/operator-command.js';

const DEFAULT_WORDS = new Set(['padrao', 'padrão']);
const MAX_VALUE = 2_147_483_647;

/** A positive whole number, or `padrao`: back to the configured default. */
function planValue(text: string): number | 'padrao' {
  // (commander turns a parser's null into "", so the word itself stands for the default)
  if (DEFAULT_WORDS.has(text.trim().toLowerCase())) return 'padrao';
  if (!/^[0-9]+$/.test(text.trim()) || Number(text) < 1 || Number(text) > MAX_VALUE) {
    throw new InvalidArgumentError(
      `"${text}" não é válido: indique um número inteiro de 1 a ${MAX_VALUE}, ou "padrao" para o valor por omissão.`,
    );
  }
  return Number(text);
}

const OPTIONS = [
  ['perMinute', '--per-minute <n>', 'rate_limit_per_minute', 'pedidos por minuto (toda a conta)'],
  ['perHour', '--per-hour <n>', 'rate_limit_per_hour', 'pedidos por hora (toda a conta)'],
  ['dailyCredits', '--daily-credits <n>', 'daily_credits', 'créditos por dia'],
] as const;

const program = operatorCommand(
  'account:plan',
  'Mostra ou altera o plano de uma conta: limites de pedidos e créditos por dia.',
).requiredOption('--email <e-mail>', 'e-mail da conta');
for (const [, flag, , label] of OPTIONS)
  program.option(flag, `${label}; "padrao" = valor por omissão`, planValue);

function describePlan(stored: StoredPlan | undefined, defaults: AccountPlan): string[] {
  const plan = resolvePlan(stored, defaults);
  const shown = (field: keyof StoredPlan, value: number | null) =>
    `${value === null ? 'sem limite' : value.toLocaleString('pt-PT')}${stored?.[field] == null ? ' (por omissão)' : ''}`;
  return [
    `  pedidos por minuto: ${shown('rate_limit_per_minute', plan.perMinute)}`,
    `  pedidos por hora:   ${shown('rate_limit_per_hour', plan.perHour)}`,
    `  créditos por dia:   ${shown('daily_credits', plan.dailyCredits)}`,
  ];
}

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const options = program.opts<
    { email: string } & Partial<Record<(typeof OPTIONS)[number][0], number | 'padrao'>>
  >();
  const changes: PlanChanges = {};
  for (const [name, , column] of OPTIONS) {
    const value = options[name];
    if (value !== undefined) changes[column] = value === 'padrao' ? null : value;
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
    const before = await storedPlan(database.db, account.id);
    if (!Object.keys(changes).length) {
      process.stdout.write(
        [
          `Plano da conta ${account.email} (id ${account.id}):`,
          ...describePlan(before, config.defaultPlan),
        ].join('\n') + '\n',
      );
      return 0;
    }
    const after = await changePlan(database.db, account.id, changes, new Date());
    const announced = await announce(config.redisUrl, account.id);
    process.stdout.write(
      [
        `Plano da conta ${account.email} (id ${account.id}) alterado.`,
        'Antes:',
        ...describePlan(before, config.defaultPlan),
        'Agora:',
        ...describePlan(after, config.defaultPlan),
        announced
          ? 'Os processos da API aplicam-no já no pedido seguinte.'
          : `Os processos da API aplicam-no em até ${config.credentialCacheSeconds} s (CREDENTIAL_CACHE_SECONDS)${config.redisUrl ? ': o Redis não respondeu' : ''}.`,
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await database.close();
  }
}

/** Tells every API process to forget the account's kept credentials (they carry the plan). */
async function announce(redisUrl: string | null, accountId: string): Promise<boolean> {
  if (!redisUrl) return false;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await announceCredentialChange(redis, DEFAULT_REDIS_PREFIX, { accountId });
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

await runOperatorCommand(main);

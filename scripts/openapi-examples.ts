/**
 * Writes src/http/openapi-examples.ts: the examples of /openapi.json, taken from real answers.
 * It starts the API in this process on the embedded default (an in-memory PGlite with the demo
 * stock, the sandbox payments, the feed worker in process), drives an integrator's flow through
 * every operation (scripts/openapi-examples/flow.ts), keeps each operation's request and first
 * answer of each status, makes what changes from run to run stable (scrub.ts) and writes them out.
 * A second server, configured for Stripe, answers Stripe's webhook.
 *
 * test/unit/openapi-document.test.ts checks every example against its schema and that every
 * operation has its examples: run `npm run docs:openapi-examples` after changing a route.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { format, resolveConfig } from 'prettier';
import Stripe from 'stripe';
import { declaredRoutes } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { prepareDemo } from '../src/demo/prepare-demo.js';
import type { OperationExamples } from '../src/http/openapi-examples.js';
import { sandboxPayments } from '../src/payments/create-provider.js';
import { SandboxProvider } from '../src/payments/sandbox-provider.js';
import { startServer, type RunningServer } from '../src/server.js';
import { createServices, type ServiceOverrides } from '../src/services.js';
import { runFlow } from './openapi-examples/flow.js';
import { ExampleRecorder } from './openapi-examples/recorder.js';
import { Scrubber } from './openapi-examples/scrub.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
export const OPENAPI_EXAMPLES = join(ROOT, 'src', 'http', 'openapi-examples.ts');

/** Where the examples' links point (a checkout page's URL): the documented host, not this run's port. */
const PUBLIC_BASE_URL = 'https://api.example.com';
const STRIPE_WEBHOOK_SECRET = 'whsec_openapi_examples';

const HEADER = `// Written by \`npm run docs:openapi-examples\` (scripts/openapi-examples.ts) from real answers of
// the API: do not edit by hand. test/unit/openapi-document.test.ts checks each against its schema.

/** An operation's examples: its request, its parameters and its answers by status. */
export interface OperationExamples {
  request?: unknown;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  responses: Record<number, unknown>;
}

/** By operationId; '*' holds error answers true of every operation (a 413, a 415, a 429). */
export const OPERATION_EXAMPLES: Record<string, OperationExamples> = `;

/** An API on a fresh in-memory database, on a free port, with these settings over the defaults. */
async function startApi(env: Record<string, string>, clock: ManualClock, overrides: ServiceOverrides = {}) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL,
    // the search tokens' secret of the examples (no secret of any real server)
    SEARCH_TOKEN_SECRET: 'openapi-examples-openapi-examples-0123',
    ...env,
  });
  const database = await openDatabase({ url: null, dataDir: null });
  await migrate(database.db);
  const services = await createServices(config, {
    ...overrides,
    database,
    clock,
    logger: pino({ level: 'silent' }),
  });
  return { services, server: await startServer(services, 0, '127.0.0.1') };
}

async function main(): Promise<void> {
  // the service's clock stands still at a whole second: scrub.ts tells its times from the database's
  const clockStart = Math.floor(Date.now() / 1000) * 1000;
  const clock = new ManualClock(new Date(clockStart));
  const dataDir = mkdtempSync(join(tmpdir(), 'pss-openapi-examples-'));
  const sandbox = new SandboxProvider(PUBLIC_BASE_URL);
  const servers: RunningServer[] = [];
  try {
    // a few thousand demo items are enough for a reference sold by several sellers, over pages
    const embedded = await startApi({ DATA_DIR: dataDir, DEMO_ITEMS: '4000' }, clock, {
      payments: sandboxPayments(sandbox),
    });
    servers.push(embedded.server);
    const demo = await prepareDemo(embedded.services);
    if (!demo) throw new Error('openapi-examples: no demo stock');
    const withStripe = await startApi(
      {
        DATA_DIR: dataDir,
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_openapi_examples',
        STRIPE_WEBHOOK_SECRET,
        FEEDS_IN_PROCESS: 'false',
      },
      clock,
    );
    servers.push(withStripe.server);

    const scrubber = new Scrubber(clockStart);
    const api = new ExampleRecorder(embedded.server.url, declaredRoutes(embedded.services));
    await runFlow({
      api,
      scrubber,
      root: ROOT,
      reference: demo.sampleReference,
      signSandbox: (verdict, payment) => sandbox.sign(verdict, payment, embedded.services.clock.now()),
    });
    await stripeWebhook(api.on(withStripe.server.url), clock.now());
    await write(scrubber.scrub(api.all()));
  } finally {
    for (const server of servers.reverse()) await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Stripe's webhook, on the server whose provider Stripe is: an event the service does not act on. */
async function stripeWebhook(api: ExampleRecorder, now: Date): Promise<void> {
  const event = JSON.stringify({
    id: 'evt_1QexampleA1b2C3d4',
    object: 'event',
    type: 'customer.created',
    data: { object: { id: 'cus_QexampleA1b2C3', object: 'customer' } },
  });
  const signature = new Stripe('sk_test_openapi_examples').webhooks.generateTestHeaderString({
    payload: event,
    secret: STRIPE_WEBHOOK_SECRET,
    // signed at the service's time: Stripe's tolerance is checked against its clock
    timestamp: Math.floor(now.getTime() / 1000),
  });
  const answer = await api.post('/payments/stripe/webhook', undefined, {
    rawBody: event,
    headers: { 'Stripe-Signature': signature },
  });
  if (answer.status !== 200) throw new Error(`openapi-examples: Stripe's webhook answered ${answer.status}`);
}

async function write(examples: Record<string, OperationExamples>): Promise<void> {
  const options = await resolveConfig(OPENAPI_EXAMPLES);
  const text = await format(`${HEADER}${JSON.stringify(examples, null, 2)};\n`, {
    ...options,
    filepath: OPENAPI_EXAMPLES,
  });
  writeFileSync(OPENAPI_EXAMPLES, text);
  process.stdout.write(`src/http/openapi-examples.ts written: ${Object.keys(examples).length} operations\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}

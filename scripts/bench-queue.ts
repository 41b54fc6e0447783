/**
 * npm run bench:queue [-- --jobs 20000]
 *
 * The indexer's transport, weighed: BullMQ on Redis (REDIS_URL) against BullMQ 6's PostgreSQL
 * backend (DATABASE_URL, its own schema), in one process and one run. For each: jobs added per
 * second (in bulks of 100, as the relay adds a burst's batches), jobs processed per second by a
 * worker of concurrency 4 with an empty processor, and the time from adding one job to its
 * processor starting (p50/p99 over 300 jobs added one at a time, as the relay hands out a change
 * that arrived alone).
 */
import { Command } from 'commander';
import { createPostgresBackend, Queue, Worker, type BackendFactory } from 'bullmq';
import pg from 'pg';
import { redisConnection } from '../indexer/index-queue.js';
import { percentile } from './bench-support.js';

const opts = new Command('bench:queue')
  .option('--jobs <n>', 'trabalhos por medição de débito', '20000')
  .parse()
  .opts<{ jobs: string }>();
const { DATABASE_URL, REDIS_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL) {
  console.error('Defina DATABASE_URL e REDIS_URL (as duas filas medidas).');
  process.exit(1);
}
const JOBS = Number(opts.jobs);
const SCHEMA = 'bench_bullmq';

interface Transport {
  name: string;
  connection: unknown;
  factory?: BackendFactory;
}

const transports: Transport[] = [
  { name: 'Redis', connection: redisConnection(REDIS_URL, 'consumer') },
  {
    name: 'PostgreSQL',
    connection: { connectionString: DATABASE_URL, schema: SCHEMA, max: 8, migrate: true },
    factory: createPostgresBackend as unknown as BackendFactory,
  },
];

const newQueue = (t: Transport, name: string) =>
  t.factory
    ? new Queue(name, { connection: t.connection as never }, t.factory)
    : new Queue(name, { connection: t.connection as never, prefix: 'bench-queue' });
const newWorker = (t: Transport, name: string, process: () => Promise<void>) =>
  t.factory
    ? new Worker(name, process, { connection: t.connection as never, concurrency: 4 }, t.factory)
    : new Worker(name, process, { connection: t.connection as never, concurrency: 4, prefix: 'bench-queue' });

async function measure(t: Transport): Promise<string> {
  const name = `bench-${Date.now()}`;
  const queue = newQueue(t, name);
  await queue.waitUntilReady();
  const added = Date.now();
  for (let i = 0; i < JOBS; i += 100) {
    await queue.addBulk(
      Array.from({ length: Math.min(100, JOBS - i) }, (_, k) => ({ name: 'j', data: { n: i + k } })),
    );
  }
  const addSeconds = (Date.now() - added) / 1000;
  let done = 0;
  const processed = Date.now();
  let finished: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (finished = resolve));
  const drainer = newWorker(t, name, async () => {
    if (++done === JOBS) finished();
  });
  await all;
  const processSeconds = (Date.now() - processed) / 1000;
  await drainer.close();

  // one job at a time: add → processor started
  const latencies: number[] = [];
  const single = `${name}-single`;
  const singleQueue = newQueue(t, single);
  let waiting: ((at: number) => void) | null = null;
  const worker = newWorker(t, single, async () => waiting?.(performance.now()));
  await worker.waitUntilReady();
  for (let i = 0; i < 300; i++) {
    const started = new Promise<number>((resolve) => (waiting = resolve));
    const at = performance.now();
    await singleQueue.add('j', { i });
    latencies.push((await started) - at);
  }
  await worker.close();
  await singleQueue.obliterate({ force: true }).catch(() => undefined);
  await queue.obliterate({ force: true }).catch(() => undefined);
  await singleQueue.close();
  await queue.close();
  return `${t.name.padEnd(10)} adicionar ${Math.round(JOBS / addSeconds)
    .toLocaleString('pt-PT')
    .padStart(7)}/s   processar ${Math.round(JOBS / processSeconds)
    .toLocaleString('pt-PT')
    .padStart(
      7,
    )}/s   um trabalho: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`;
}

const lines: string[] = [];
for (const t of transports) lines.push(await measure(t));
console.log(`\nbench:queue — ${JOBS.toLocaleString('pt-PT')} trabalhos, concorrência 4, processador vazio`);
for (const line of lines) console.log(line);
const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`drop schema if exists ${SCHEMA} cascade`);
await admin.end();

import { sql } from 'kysely';
import { seedCatalog } from '../catalog/seed.js';
import type { Config } from '../config.js';
import type { Database, DatabaseHandle } from '../db/database.js';
import type { Logger } from '../logger.js';
import { demoAccountFile, ensureDemoAccount } from './demo-account.js';
import { demoCatalogParts } from './demo-catalog.js';
import { DemoDataset } from './generator.js';
import { loadWithCopy } from './load-copy.js';
import { loadWithInserts } from './load-insert.js';
import { takenIds, totalRows, type LoadSummary } from './load-phases.js';
import { phaseBars, type PhaseBars } from './progress-bars.js';

export interface DemoAccount {
  email: string;
  password: string;
  apiKey: string;
  /** a reference present in the demo stock, for the printed curl example */
  sampleReference: string;
}

/** The demo stock is the same on every machine: `npm run data:generate` uses this seed too. */
export const DEMO_SEED = 1;
export const DEMO_VENDORS = 400;
// Any constant works; it only has to be the same for every process loading the demo.
const DEMO_LOCK_ID = 727_002;

/**
 * An OEM reference offered by the most sellers, among those with aftermarket equivalents: a
 * search for it shows several offers, price statistics and cross-references at work.
 */
async function sampleReference(db: Database): Promise<string | null> {
  const row = await sql<{ reference: string }>`select min(reference) as reference
      from stock_items where is_oem and xref_group_id is not null
      group by reference_norm order by count(*) desc, reference_norm limit 1`
    .execute(db)
    .then((r) => r.rows[0]);
  return row?.reference ?? null;
}

const silentBars: PhaseBars = { onProgress: () => {}, finish: () => {} };

/**
 * Demo data for the embedded default: the catalogs, DEMO_ITEMS stock items when the stock is
 * empty, and a ready demo account. Safe to call on every start (a no-op past the first) and from
 * several processes at once on PostgreSQL (an advisory lock makes the later ones wait).
 */
export async function prepareDemo(services: {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
}): Promise<DemoAccount | null> {
  const { config, database, logger } = services;
  const db = database.db;
  const bars = config.logLevel === 'silent' ? silentBars : phaseBars();
  const lock = database.pool ? await database.pool.connect() : null;
  try {
    await lock?.query('SELECT pg_advisory_lock($1)', [DEMO_LOCK_ID]);
    await seedCatalog(db, { onProgress: (done, total, label) => bars.onProgress(label, done, total) });
    bars.finish();

    const hasStock = await db.selectFrom('stock_items').select('id').limit(1).executeTakeFirst();
    if (!hasStock && config.demoItems > 0) {
      const dataset = new DemoDataset({
        seed: DEMO_SEED,
        items: config.demoItems,
        vendors: DEMO_VENDORS,
        catalog: demoCatalogParts(),
        after: await takenIds(db),
      });
      const summary: LoadSummary = database.pool
        ? await loadWithCopy(database.pool, dataset, { onProgress: bars.onProgress })
        : await loadWithInserts(db, dataset, { onProgress: bars.onProgress });
      bars.finish();
      logger.info(
        { ...summary, rowsPerSecond: Math.round(totalRows(summary) / summary.seconds) },
        'demo stock loaded',
      );
    }

    const credentials = await ensureDemoAccount(db, demoAccountFile(config.dataDir, config.databaseUrl));
    return { ...credentials, sampleReference: (await sampleReference(db)) ?? '1K0 615 301 AA' };
  } finally {
    if (lock) {
      await lock.query('SELECT pg_advisory_unlock($1)', [DEMO_LOCK_ID]).catch(() => {});
      lock.release();
    }
  }
}

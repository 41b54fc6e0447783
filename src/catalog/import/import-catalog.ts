import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { recordProblem } from '../../json-schema.js';
import { bulkInsert } from '../bulk-insert.js';
import { importKind, IMPORT_KINDS, normalizeRecord } from './import-kinds.js';
import { readRows, type RowError } from './read-rows.js';

const BATCH = 5_000;

export interface ImportOutcome {
  /** rows written; 0 when there were errors (nothing is written then) */
  imported: number;
  errors: RowError[];
  seconds: number;
}

/**
 * Loads one catalog kind from a CSV or JSON Lines file. Every row is validated first (types,
 * required columns, duplicate keys in the file, parents that exist); with any bad row nothing
 * is written and every problem is reported with its line. Otherwise all rows are upserted by key
 * in one transaction, so importing the same file twice changes nothing the second time.
 */
export async function importCatalogFile(
  db: Database,
  file: string,
  kindName: string,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<ImportOutcome> {
  const started = performance.now();
  const kind = importKind(kindName);
  if (!kind)
    throw new Error(`tipo de catálogo desconhecido: ${kindName} (válidos: ${IMPORT_KINDS.join(', ')})`);
  const { rows, errors } = await readRows(file);

  const valid: { line: number; record: Record<string, unknown> }[] = [];
  const seen = new Map<string, number>();
  for (const { line, record } of rows) {
    const normalized = normalizeRecord(record);
    const problem = recordProblem(kind.schema, normalized, 'registo');
    if (problem) {
      errors.push({ line, message: problem });
      continue;
    }
    const key = kind.key
      .filter((k) => k !== 'kind')
      .map((k) => String(normalized[k]))
      .join('|');
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push({ line, message: `chave repetida (${key}); já na linha ${first}` });
      continue;
    }
    seen.set(key, line);
    valid.push({ line, record: normalized });
  }

  if (kind.parent) {
    const { column, table } = kind.parent;
    const wanted = [...new Set(valid.map((r) => Number(r.record[column])))];
    const existing = new Set(
      (
        await sql<{
          id: number;
        }>`select id from ${sql.table(table)} where id = any(${wanted}::int[])`.execute(db)
      ).rows.map((r) => r.id),
    );
    for (const { line, record } of valid) {
      if (!existing.has(Number(record[column]))) {
        errors.push({ line, message: `${column} ${String(record[column])} não existe em ${table}` });
      }
    }
  }
  if (errors.length || !valid.length) {
    if (!valid.length && !errors.length) errors.push({ line: 0, message: 'o ficheiro não tem registos' });
    return {
      imported: 0,
      errors: errors.sort((a, b) => a.line - b.line),
      seconds: (performance.now() - started) / 1000,
    };
  }

  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < valid.length; start += BATCH) {
      const batch = valid.slice(start, start + BATCH).map((r) => r.record);
      await bulkInsert(
        trx,
        kind.table,
        Object.entries(kind.columns).map(([name, [type, read]]) => ({ name, type, values: batch.map(read) })),
        { upsert: kind.key },
      );
      onProgress(start + batch.length, valid.length);
    }
  });
  return { imported: valid.length, errors: [], seconds: (performance.now() - started) / 1000 };
}

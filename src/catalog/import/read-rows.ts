import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

export interface SourceRow {
  /** 1-based line of the file the row starts on */
  line: number;
  record: Record<string, unknown>;
}

export type RowError = { line: number; message: string };

/** CSV (header row, comma or semicolon) or JSON Lines, by the file's extension. */
export function formatOf(file: string): 'csv' | 'jsonl' {
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(file)) return 'jsonl';
  throw new Error(`formato não reconhecido: ${file} (use .csv, .jsonl ou .ndjson)`);
}

/** Reads every row with its line number; a line that cannot be parsed becomes an error, not a stop. */
export async function readRows(file: string): Promise<{ rows: SourceRow[]; errors: RowError[] }> {
  const rows: SourceRow[] = [];
  const errors: RowError[] = [];
  if (formatOf(file) === 'jsonl') {
    let line = 0;
    for await (const text of createInterface({
      input: createReadStream(file, 'utf8'),
      crlfDelay: Infinity,
    })) {
      line++;
      if (!text.trim()) continue;
      try {
        const record: unknown = JSON.parse(text);
        if (!record || typeof record !== 'object' || Array.isArray(record))
          throw new Error('não é um objeto JSON');
        rows.push({ line, record: record as Record<string, unknown> });
      } catch (error) {
        errors.push({ line, message: `JSON inválido (${(error as Error).message})` });
      }
    }
    return { rows, errors };
  }
  const parser = createReadStream(file).pipe(
    parse({
      columns: true,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      delimiter: [',', ';'],
      info: true,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      // Empty CSV cells mean "no value".
      const cleaned = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== ''));
      rows.push({ line: info.lines, record: cleaned });
    }
  } catch (error) {
    const e = error as { lines?: number; message: string };
    errors.push({ line: e.lines ?? 0, message: `CSV inválido (${e.message})` });
  }
  return { rows, errors };
}

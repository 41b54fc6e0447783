import { isUtf8 } from 'node:buffer';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CsvError, parse } from 'csv-parse';
import { fieldOf, rawLineOf, type FieldName, type RawLine } from './stock-line.js';

/** A feed's body: CSV with a header line, or JSON Lines (one object per line). */
export type FeedFormat = 'csv' | 'jsonl';

/** The most a feed may hold once decompressed (the upload's own limit applies to what is sent). */
export const MAX_FEED_BYTES = 256 * 1024 * 1024;
/** The longest line (record) a feed may have. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** The whole feed cannot be read: it is refused with this reason (Portuguese) and nothing is applied. */
export class FeedRefusal extends Error {
  constructor(
    readonly code:
      | 'INVALID_UTF8'
      | 'TRUNCATED_GZIP'
      | 'FEED_TOO_LARGE'
      | 'MALFORMED_CSV'
      | 'MISSING_SKU_COLUMN'
      | 'LINE_TOO_LONG',
    message: string,
  ) {
    super(message);
    this.name = 'FeedRefusal';
  }
}

/** One record of a feed: its line number (1 = the CSV header or the first JSON line) and values. */
export type FeedRecord =
  | { line: number; raw: RawLine }
  /** a line that is not a record at all (a JSON Lines line that is not an object) */
  | { line: number; problem: string };

export interface FeedContents {
  /** `;`-separated CSV (a price may be written 12,50) */
  decimalComma: boolean;
  /** columns (CSV) or keys (JSON Lines) the service does not know: a warning, not an error */
  unknownColumns: Set<string>;
  records: AsyncGenerator<FeedRecord>;
}

/**
 * Counts lines and refuses bytes that are not UTF-8, naming the first line where they stand; a
 * character cut between two chunks is carried over to the next.
 */
class Utf8Lines extends Transform {
  private carry = Buffer.alloc(0);
  private line = 1;
  private total = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.total += chunk.length;
    if (this.total > this.maxBytes) {
      return done(
        new FeedRefusal(
          'FEED_TOO_LARGE',
          `O feed passa de ${Math.round(this.maxBytes / 1024 / 1024)} MB descomprimido.`,
        ),
      );
    }
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = completeLength(bytes);
    const complete = bytes.subarray(0, whole);
    this.carry = Buffer.from(bytes.subarray(whole));
    if (!isUtf8(complete)) return done(this.invalid(complete));
    this.line += countNewlines(complete);
    done(null, complete);
  }

  override _flush(done: TransformCallback): void {
    if (this.carry.length) return done(this.invalid(this.carry));
    done();
  }

  private invalid(bytes: Buffer): FeedRefusal {
    const at = firstInvalid(bytes);
    const line = this.line + countNewlines(bytes.subarray(0, at));
    return new FeedRefusal(
      'INVALID_UTF8',
      `O ficheiro não está em UTF-8 na linha ${line}: guarde-o como UTF-8 (com ou sem BOM).`,
    );
  }
}

const countNewlines = (bytes: Buffer): number => {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
};

/** How many bytes of `bytes` end on a character's end (a sequence cut at the end is left out). */
function completeLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** The offset of the first byte that breaks UTF-8 (only called once isUtf8 said there is one). */
function firstInvalid(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (length === 0 || !isUtf8(bytes.subarray(i, i + length))) return i;
    i += length - 1;
  }
  return bytes.length;
}

/** The delimiter of a CSV header line: the most frequent of , ; and tab outside quotes. */
function delimiterOf(header: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of header) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c in counts) counts[c as keyof typeof counts]++;
  }
  return (Object.entries(counts) as [',' | ';' | '\t', number][]).sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * The text of a feed, decompressed and checked, as one stream of strings. Piped, so a reader slower
 * than the body (staging lines in the database) holds the body back instead of piling it up.
 */
function decodedText(body: Readable, gzipped: boolean, maxBytes: number): Readable {
  const utf8 = new Utf8Lines(maxBytes);
  const fail = (error: unknown) =>
    utf8.destroy(
      error instanceof FeedRefusal
        ? error
        : gzipped && /unexpected end|incorrect header|invalid/i.test(String(error))
          ? new FeedRefusal('TRUNCATED_GZIP', 'O ficheiro gzip está cortado ou corrompido: envie-o de novo.')
          : (error as Error),
    );
  body.on('error', fail);
  let source: Readable = body;
  if (gzipped) {
    const gunzip = createGunzip();
    gunzip.on('error', fail);
    source = body.pipe(gunzip);
  }
  source.pipe(utf8);
  utf8.on('close', () => body.destroy());
  utf8.setEncoding('utf8');
  return utf8;
}

/**
 * Reads a feed's body as records, streaming: nothing is held whole in memory. A CSV's header names
 * its columns (sku is required; names in Portuguese, English or Spanish); its delimiter (comma,
 * semicolon or tab) is told from the header; a BOM is dropped.
 */
export async function readFeed(
  body: Readable,
  format: FeedFormat,
  gzipped: boolean,
  maxBytes = MAX_FEED_BYTES,
): Promise<FeedContents> {
  const text = decodedText(body, gzipped, maxBytes);
  return format === 'csv' ? readCsv(text) : readJsonLines(text);
}

async function readCsv(text: Readable): Promise<FeedContents> {
  // the header line first, to learn the delimiter; then the parser over it and the rest
  const iterator = text[Symbol.asyncIterator]() as AsyncIterator<string>;
  let head = '';
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    head += next.value;
    if (next.value.includes('\n')) break;
    if (head.length > MAX_LINE_BYTES)
      throw new FeedRefusal('LINE_TOO_LONG', `A linha 1 passa de ${MAX_LINE_BYTES / 1024 / 1024} MB.`);
  }
  const headerLine = head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  const delimiter = delimiterOf(headerLine);
  const rest = Readable.from(
    (async function* () {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })(),
  );
  const parser = rest.pipe(
    parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      // a quote inside an unquoted field is a character (Jante 15", 1/2" tubo), as spreadsheets write it
      relax_quotes: true,
      max_record_size: MAX_LINE_BYTES,
      info: true,
    }),
  );
  rest.on('error', (error) => parser.destroy(error));
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{
    record: string[];
    info: { lines: number };
  }>;
  const first = await nextRecord(records);
  if (!first)
    throw new FeedRefusal('MISSING_SKU_COLUMN', 'O ficheiro está vazio: falta a linha de cabeçalho.');
  const columns = first.record.map((name) => fieldOf(name));
  if (!columns.includes('sku')) {
    throw new FeedRefusal(
      'MISSING_SKU_COLUMN',
      'A linha de cabeçalho não tem a coluna sku (o código do artigo do vendedor): cada linha é identificada por ela.',
    );
  }
  const unknownColumns = new Set(first.record.filter((_, i) => columns[i] === null).map((c) => c.trim()));
  return {
    decimalComma: delimiter === ';',
    unknownColumns,
    records: (async function* () {
      for (let next = await nextRecord(records); next; next = await nextRecord(records)) {
        const raw: RawLine = {};
        next.record.forEach((value, i) => {
          const field = columns[i] as FieldName | null | undefined;
          if (field) raw[field] = value;
        });
        yield { line: next.info.lines, raw };
      }
    })(),
  };
}

/** The parser's next record, its errors as refusals that name the line. */
async function nextRecord<T extends { info: { lines: number } }>(
  records: AsyncIterator<T>,
): Promise<T | null> {
  try {
    const next = await records.next();
    return next.done ? null : next.value;
  } catch (error) {
    if (error instanceof FeedRefusal) throw error;
    const e = error as { code?: string; lines?: number; message?: string };
    if (e.code === 'CSV_MAX_RECORD_SIZE') {
      throw new FeedRefusal(
        'LINE_TOO_LONG',
        `A linha ${e.lines ?? '?'} passa de ${MAX_LINE_BYTES / 1024 / 1024} MB.`,
      );
    }
    if (error instanceof CsvError) {
      throw new FeedRefusal(
        'MALFORMED_CSV',
        `O CSV está mal formado na linha ${e.lines ?? '?'}: ${e.code === 'CSV_QUOTE_NOT_CLOSED' ? 'aspas por fechar' : e.message}.`,
      );
    }
    throw error;
  }
}

async function readJsonLines(text: Readable): Promise<FeedContents> {
  const unknownColumns = new Set<string>();
  return {
    decimalComma: false,
    unknownColumns,
    records: (async function* () {
      let pending = '';
      let line = 0;
      const one = (written: string): FeedRecord | null => {
        line += 1;
        const trimmed = written.replace(/^\uFEFF/, '').trim();
        if (trimmed === '') return null;
        if (trimmed.length > MAX_LINE_BYTES) {
          throw new FeedRefusal(
            'LINE_TOO_LONG',
            `A linha ${line} passa de ${MAX_LINE_BYTES / 1024 / 1024} MB.`,
          );
        }
        let value: unknown;
        try {
          value = JSON.parse(trimmed);
        } catch {
          return { line, problem: 'A linha não é JSON válido.' };
        }
        if (!value || typeof value !== 'object' || Array.isArray(value)) {
          return { line, problem: 'A linha não é um objeto JSON.' };
        }
        const { raw, unknownKeys } = rawLineOf(value as Record<string, unknown>);
        for (const key of unknownKeys) unknownColumns.add(key);
        return { line, raw };
      };
      for await (const chunk of text as AsyncIterable<string>) {
        pending += chunk;
        if (pending.length > MAX_LINE_BYTES && !pending.includes('\n')) {
          throw new FeedRefusal(
            'LINE_TOO_LONG',
            `A linha ${line + 1} passa de ${MAX_LINE_BYTES / 1024 / 1024} MB.`,
          );
        }
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const written of lines) {
          const record = one(written);
          if (record) yield record;
        }
      }
      const last = one(pending);
      if (last) yield last;
    })(),
  };
}

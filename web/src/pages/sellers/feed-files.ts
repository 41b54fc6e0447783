import { download } from '../../api';
import type { FeedAnswer, FeedSentAnswer, SellersAnswer } from '../../api-types';

export type Seller = SellersAnswer['sellers'][number];
/** A feed as the upload's answer and the history list it. */
export type Feed = FeedSentAnswer['feed'];
/** A feed as GET /stock/feeds/:id has it: with its first rejected lines. */
export type FeedDetail = FeedAnswer['feed'];

/** A feed's states after which nothing more happens to it. */
const FINISHED: readonly string[] = ['done', 'refused', 'failed'];
export const isFinished = (status: string) => FINISHED.includes(status);

/** What the file input offers: CSV (and TSV, plain text), JSON Lines, each also gzipped. */
export const FEED_FILE_TYPES =
  '.csv,.tsv,.txt,.jsonl,.ndjson,.json,.gz,text/csv,text/plain,application/x-ndjson,application/gzip';

/**
 * The headers a file is sent with, by its name (a browser gives no type, or a vague one, to most
 * of these): JSON Lines by .jsonl/.ndjson/.json, CSV otherwise (the API finds the separator);
 * a .gz one compressed.
 */
export function feedHeaders(file: File): Record<string, string> {
  const gzipped = /\.gz$/i.test(file.name) || /gzip/i.test(file.type);
  const inner = file.name.replace(/\.gz$/i, '');
  const jsonLines =
    /\.(jsonl|ndjson|json)$/i.test(inner) || (!gzipped && /ndjson|jsonl|jsonlines/i.test(file.type));
  return {
    'Content-Type': jsonLines ? 'application/x-ndjson' : 'text/csv',
    ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
  };
}

/** Hands bytes to the browser's downloads under a name. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A feed's error report (every rejected line, CSV): fetched with the session's Authorization
 * header, which a plain link could not send, then saved under the name the API gives it.
 */
export async function downloadErrorReport(feedId: string) {
  const { blob, filename } = await download(`/stock/feeds/${feedId}/errors`);
  saveFile(blob, filename ?? `feed-${feedId}-erros.csv`);
}

import { dateTimeSchema, iso } from '../accounts/account.views.js';
import type { FeedError, FeedRow } from './feed-store.js';

const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const count = (description: string) => ({ type: 'integer', minimum: 0, description });

const feedErrorSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['line', 'sku', 'field', 'message'],
  properties: {
    line: { type: 'integer', description: 'The line in the file (1 = a CSV’s header).' },
    sku: { type: ['string', 'null'] },
    field: { type: ['string', 'null'], description: 'The column at fault; null: the whole line.' },
    message: { type: 'string', description: 'Why, in Portuguese.' },
  },
};

const feedProperties = {
  id: { type: 'string' },
  seller_id: { type: 'string' },
  mode: { type: 'string', enum: ['full', 'delta'] },
  format: { type: 'string', enum: ['csv', 'jsonl'] },
  gzipped: { type: 'boolean' },
  dry_run: { type: 'boolean' },
  force: { type: 'boolean' },
  status: {
    type: 'string',
    enum: ['received', 'validating', 'applying', 'done', 'refused', 'failed'],
    description:
      '`received`: waiting its turn (one feed of a seller at a time); `validating`, `applying`: in progress; `done`: applied whole (or, dry run, reported); `refused`: the file or what it would do was refused, nothing changed (`reason`); `failed`: our side failed, nothing changed — send it again.',
  },
  bytes: { type: 'integer', minimum: 0, description: 'The body as received (compressed, if it was).' },
  counts: {
    type: 'object',
    additionalProperties: false,
    required: ['lines', 'created', 'updated', 'unchanged', 'removed', 'rejected'],
    description: 'Lines read so far, then what the feed changed (dry run: would change).',
    properties: {
      lines: count('Records read (a CSV’s header not counted).'),
      created: count('Items created.'),
      updated: count('Items changed.'),
      unchanged: count('Items the file names as they already were: not written, not reindexed.'),
      removed: count('Items removed (full: not in the file; delta: action=delete).'),
      rejected: count('Lines rejected (GET /stock/feeds/{id}/errors): their items keep their state.'),
    },
  },
  warnings: {
    type: 'array',
    items: { type: 'string' },
    description: 'Unknown columns, repeated SKUs… (Portuguese).',
  },
  reason: { type: ['string', 'null'], description: 'Why it was refused or failed (Portuguese).' },
  reason_code: { type: ['string', 'null'], description: 'A stable code for `reason` (docs/stock-feeds.md).' },
  created_at: dateTimeSchema,
  received_at: nullableDateTime,
  started_at: nullableDateTime,
  finished_at: nullableDateTime,
};

/** A feed in a seller's history. */
export const feedSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'A stock feed: its state, counts and timings.',
  required: Object.keys(feedProperties),
  properties: feedProperties,
};

/** A feed with its first rejected lines. */
export const feedDetailSchema = {
  ...feedSchema,
  required: [...feedSchema.required, 'first_errors'],
  properties: {
    ...feedProperties,
    first_errors: { type: 'array', items: feedErrorSchema, description: 'The first 20 rejected lines.' },
  },
};

export const feedView = (f: FeedRow) => ({
  id: f.id,
  seller_id: f.vendor_id,
  mode: f.mode,
  format: f.format,
  gzipped: f.gzipped,
  dry_run: f.dry_run,
  force: f.force,
  // a body still arriving is not a feed yet: only its sender's request knows it
  status: f.status === 'receiving' ? 'received' : f.status,
  bytes: Number(f.bytes),
  counts: {
    lines: f.lines,
    created: f.created,
    updated: f.updated,
    unchanged: f.unchanged,
    removed: f.removed,
    rejected: f.rejected,
  },
  warnings: f.warnings,
  reason: f.reason,
  reason_code: f.reason_code,
  created_at: iso(f.created_at),
  received_at: iso(f.received_at),
  started_at: iso(f.started_at),
  finished_at: iso(f.finished_at),
});

export const feedDetailView = (f: FeedRow, firstErrors: FeedError[]) => ({
  ...feedView(f),
  first_errors: firstErrors,
});

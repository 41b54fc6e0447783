import { Type } from '@sinclair/typebox';
import { Defaulted } from '../json-schema.js';
import { PageParameter } from '../paging.js';
import { SellerParameter } from './stock-items.schemas.js';

/** Query of POST /stock/feeds. */
export const NewFeedQuerySchema = Type.Object(
  {
    seller: SellerParameter,
    mode: Type.Union([Type.Literal('full'), Type.Literal('delta')], {
      description:
        '`full`: the file is the seller’s whole stock (items it does not name are removed); `delta`: its lines create, change or (action=delete) remove items, the rest stays.',
    }),
    dry_run: Defaulted(
      Type.Boolean({ default: false, description: 'Validate and report what would change; change nothing.' }),
    ),
    force: Defaulted(
      Type.Boolean({
        default: false,
        description:
          'Apply a full feed that would remove more than 30 % of the seller’s items, or an empty one (refused without it: a cut file must not wipe a seller).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Path of /stock/feeds/:id. */
export const FeedIdSchema = Type.Object(
  { id: Type.String({ pattern: '^[0-9]{1,18}$', description: 'The feed’s id.' }) },
  { additionalProperties: false },
);

export const FeedHistoryQuerySchema = Type.Object(
  {
    seller: SellerParameter,
    page: PageParameter,
    per_page: Defaulted(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

/** What a feed's body may be, by Content-Type. */
export const FEED_MEDIA_TYPES = {
  csv: ['text/csv', 'application/csv', 'text/tab-separated-values', 'text/plain'],
  jsonl: ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/jsonlines'],
} as const;

import { route, type AnyRoute } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import type { SellersService } from '../sellers/sellers.js';
import { errorReport, FEED_TEMPLATE } from './feed-csv.js';
import type { StockFeeds } from './stock-feeds.js';
import {
  FEED_MEDIA_TYPES,
  FeedHistoryQuerySchema,
  FeedIdSchema,
  NewFeedQuerySchema,
} from './stock-feeds.schemas.js';
import { feedDetailSchema, feedDetailView, feedSchema, feedView } from './stock-feeds.views.js';
import { TAG_STOCK } from './stock-items.routes.js';

const FEED_ERRORS = ['INSUFFICIENT_SCOPE', 'SELLER_NOT_FOUND'] as const;

/** Named in /openapi.json: one StockFeed type in generated clients for the feed and the history. */
const feedSchemaNames = { StockFeed: feedSchema, StockFeedDetail: feedDetailSchema };

/** A seller's feeds: sent whole, applied by a feed worker, followed by their id. */
export function stockFeedsRoutes({
  sellers,
  feeds,
}: {
  sellers: SellersService;
  feeds: StockFeeds;
}): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/stock/feeds/template.csv',
      auth: 'public',
      operationId: 'getFeedTemplate',
      summary: 'A feed template to fill in (CSV)',
      description:
        'Every column a feed may have, in Portuguese (English and Spanish names are read too), with two example lines. Semicolon-separated, decimal comma, UTF-8.',
      tags: [TAG_STOCK],
      cacheSeconds: 3600,
      responses: {
        200: { description: 'The template', contentType: 'text/csv', schema: { type: 'string' } },
      },
      async handler() {
        return {
          body: FEED_TEMPLATE,
          contentType: 'text/csv; charset=utf-8',
          headers: { 'Content-Disposition': 'attachment; filename="modelo-feed-stock.csv"' },
        };
      },
    }),
    route({
      method: 'post',
      path: '/stock/feeds',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'sendStockFeed',
      summary: 'Send a stock feed (CSV or JSON Lines, gzip accepted)',
      description:
        'The body is the file, streamed: CSV with a header (comma, semicolon or tab; decimal comma with semicolons) as `text/csv`, or JSON Lines as `application/x-ndjson`; `Content-Encoding: gzip` for a compressed one. ' +
        'The answer comes once the body is stored: 202 with the feed, then follow it at GET /stock/feeds/{id}. ' +
        'A seller’s feeds are applied one at a time, in the order received (a second one waits its turn: no 409). ' +
        'A line that cannot be read is rejected and reported; the others are applied, all at once. See docs/stock-feeds.md.',
      tags: ['Stock'],
      schemas: feedSchemaNames,
      query: NewFeedQuerySchema,
      upload: {
        mediaTypes: [...FEED_MEDIA_TYPES.csv, ...FEED_MEDIA_TYPES.jsonl],
        encodings: ['identity', 'gzip'],
        maxBytes: feeds.maxBytes,
      },
      responses: {
        202: {
          description: 'Received; a feed worker validates and applies it',
          schema: successBody({ feed: feedSchema }),
          headers: {
            Location: { description: 'The feed: GET it to follow it.', schema: { type: 'string' } },
          },
        },
      },
      errors: [...FEED_ERRORS],
      async handler({ principal, query, upload }) {
        const seller = await sellers.writable(principal, query.seller);
        const format = (FEED_MEDIA_TYPES.jsonl as readonly string[]).includes(upload!.mediaType)
          ? 'jsonl'
          : 'csv';
        const feed = await feeds.receive({
          seller,
          principal,
          mode: query.mode,
          format,
          gzipped: upload!.encoding === 'gzip',
          dryRun: query.dry_run,
          force: query.force,
          body: upload!.stream,
        });
        return {
          status: 202,
          body: { success: true, feed: feedView(feed) },
          headers: { Location: `/stock/feeds/${feed.id}` },
        };
      },
    }),
    route({
      method: 'get',
      path: '/stock/feeds',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'listStockFeeds',
      summary: 'The seller’s feeds, newest first',
      tags: ['Stock'],
      schemas: feedSchemaNames,
      query: FeedHistoryQuerySchema,
      responses: {
        200: {
          description: 'A page of the history',
          schema: successBody({
            feeds: { type: 'array', items: feedSchema },
            total: { type: 'integer', minimum: 0 },
            page: { type: 'integer', minimum: 1 },
            per_page: { type: 'integer', minimum: 1 },
          }),
        },
      },
      errors: [...FEED_ERRORS],
      async handler({ principal, query }) {
        const seller = await sellers.writable(principal, query.seller);
        const history = await feeds.history(seller, query.page, query.per_page);
        return {
          body: {
            success: true,
            feeds: history.feeds.map(feedView),
            total: history.total,
            page: query.page,
            per_page: query.per_page,
          },
        };
      },
    }),
    route({
      method: 'get',
      path: '/stock/feeds/:id',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'getStockFeed',
      summary: 'A feed: its state, progress, counts and first rejected lines',
      tags: ['Stock'],
      schemas: feedSchemaNames,
      params: FeedIdSchema,
      responses: { 200: { description: 'The feed', schema: successBody({ feed: feedDetailSchema }) } },
      errors: ['INSUFFICIENT_SCOPE', 'FEED_NOT_FOUND'],
      async handler({ principal, params }) {
        const { feed, firstErrors } = await feeds.get(principal, params.id);
        return { body: { success: true, feed: feedDetailView(feed, firstErrors) } };
      },
    }),
    route({
      method: 'get',
      path: '/stock/feeds/:id/errors',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'getStockFeedErrors',
      summary: 'Every rejected line of a feed (CSV)',
      description:
        'Columns linha, sku, campo, mensagem (Portuguese); a cell a spreadsheet would run as a formula starts with an apostrophe.',
      tags: ['Stock'],
      schemas: feedSchemaNames,
      params: FeedIdSchema,
      responses: { 200: { description: 'The report', contentType: 'text/csv', schema: { type: 'string' } } },
      errors: ['INSUFFICIENT_SCOPE', 'FEED_NOT_FOUND'],
      async handler({ principal, params }) {
        const { feed, errors } = await feeds.errors(principal, params.id);
        return {
          body: errorReport(errors),
          contentType: 'text/csv; charset=utf-8',
          headers: { 'Content-Disposition': `attachment; filename="feed-${feed.id}-erros.csv"` },
        };
      },
    }),
  ];
}

import type { Readable } from 'node:stream';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Seller, SellersService } from '../sellers/sellers.js';
import type { FeedFormat } from './feed-reader.js';
import {
  allErrors,
  createFeed,
  feedHistory,
  findFeed,
  firstErrors,
  receiveBody,
  type FeedRow,
} from './feed-store.js';

/** Rejected lines shown with a feed (the rest: GET /stock/feeds/:id/errors). */
const FIRST_ERRORS = 20;

export const feedNotFound = () => new ServiceError('FEED_NOT_FOUND', 'Feed não encontrado.');

export interface FeedRequest {
  seller: Seller;
  principal: Principal;
  mode: 'full' | 'delta';
  format: FeedFormat;
  gzipped: boolean;
  dryRun: boolean;
  force: boolean;
  body: Readable;
}

/**
 * A seller's feeds, as the API receives and shows them: a feed is received whole (kept in the
 * database as it arrives, never held in memory), then a feed worker validates and applies it
 * (feed-worker.ts). Another seller's feed is a 404.
 */
export function createStockFeeds(
  db: Database,
  sellers: SellersService,
  limits: { maxBytes: number; maxBytesPerSecond: number },
) {
  const readable = async (principal: Principal, feedId: string): Promise<FeedRow> => {
    const feed = await findFeed(db, feedId);
    if (!feed) throw feedNotFound();
    try {
      await sellers.writable(principal, feed.vendor_id);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'SELLER_NOT_FOUND') throw feedNotFound();
      throw error;
    }
    return feed;
  };

  return {
    maxBytes: limits.maxBytes,

    /** Keeps the body and queues the feed; answers once the last byte is stored. */
    async receive(request: FeedRequest): Promise<FeedRow> {
      const feedId = await createFeed(db, {
        vendorId: request.seller.id,
        accountId: request.principal.accountId,
        mode: request.mode,
        format: request.format,
        gzipped: request.gzipped,
        dryRun: request.dryRun,
        force: request.force,
      });
      await receiveBody(db, feedId, request.body, limits);
      return (await findFeed(db, feedId))!;
    },

    async get(principal: Principal, feedId: string) {
      const feed = await readable(principal, feedId);
      return { feed, firstErrors: await firstErrors(db, feedId, FIRST_ERRORS) };
    },

    async errors(principal: Principal, feedId: string) {
      const feed = await readable(principal, feedId);
      return { feed, errors: allErrors(db, feedId) };
    },

    history: (seller: Seller, page: number, perPage: number) => feedHistory(db, seller.id, page, perPage),
  };
}

export type StockFeeds = ReturnType<typeof createStockFeeds>;

import { route, type AnyRoute, type ApiTag, type RouteResponse } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import type { SellersService } from '../sellers/sellers.js';
import type { ItemOutcome, StockItem, StockItems } from './stock-items.js';
import {
  ItemListQuerySchema,
  SellerQuerySchema,
  SkuParamsSchema,
  StockItemBodySchema,
  StockItemChangesSchema,
} from './stock-items.schemas.js';
import { stockItemSchema, stockItemView } from './stock-items.views.js';
import { rawLineOf } from './stock-line.js';

export const TAG_STOCK: ApiTag = {
  name: 'Stock',
  description:
    'A seller writes its own stock: whole files (feeds, full or delta) and single items by SKU. Needs a session of the seller’s account or an API key with the `stock:write` scope, bound to that seller; another seller’s stock answers 404.',
};

const STOCK_ERRORS = ['INSUFFICIENT_SCOPE', 'SELLER_NOT_FOUND'] as const;

const writtenSchema = successBody({
  result: {
    type: 'string',
    enum: ['created', 'updated', 'unchanged'],
    description:
      '`unchanged`: the item already held this; nothing was written and nothing is reindexed. Closed list.',
  },
  item: stockItemSchema,
});

/**
 * Named in /openapi.json: generated clients get one type for a seller's item (SellerStockItem: not
 * the search's StockItem, an offer as buyers see it) and for what a write answers.
 */
const stockItemSchemaNames = { SellerStockItem: stockItemSchema, StockItemWriteResult: writtenSchema };

const written = ({ outcome, item }: { outcome: ItemOutcome; item: StockItem }): RouteResponse => ({
  status: outcome === 'created' ? 201 : 200,
  body: { success: true, result: outcome, item: stockItemView(item) },
});

/** A seller's items by SKU, for the seller's own systems (its shop, its point of sale). */
export function stockItemsRoutes({
  sellers,
  items,
}: {
  sellers: SellersService;
  items: StockItems;
}): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/stock/items',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'listStockItems',
      summary: 'List the seller’s items, by SKU',
      tags: [TAG_STOCK],
      schemas: stockItemSchemaNames,
      query: ItemListQuerySchema,
      responses: {
        200: {
          description: 'A page of items, in SKU order',
          schema: successBody({
            items: { type: 'array', items: stockItemSchema },
            total: { type: 'integer', minimum: 0 },
            page: { type: 'integer', minimum: 1 },
            per_page: { type: 'integer', minimum: 1 },
          }),
        },
      },
      errors: [...STOCK_ERRORS],
      async handler({ principal, query }) {
        const seller = await sellers.writable(principal, query.seller);
        const page = await items.list(seller, { sku: query.sku, page: query.page, perPage: query.per_page });
        return {
          body: {
            success: true,
            items: page.items.map(stockItemView),
            total: page.total,
            page: query.page,
            per_page: query.per_page,
          },
        };
      },
    }),
    route({
      method: 'get',
      path: '/stock/items/:sku',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'getStockItem',
      summary: 'Read one item by its SKU',
      tags: ['Stock'],
      schemas: stockItemSchemaNames,
      params: SkuParamsSchema,
      query: SellerQuerySchema,
      responses: { 200: { description: 'The item', schema: successBody({ item: stockItemSchema }) } },
      errors: [...STOCK_ERRORS, 'STOCK_ITEM_NOT_FOUND'],
      async handler({ principal, params, query }) {
        const seller = await sellers.writable(principal, query.seller);
        return { body: { success: true, item: stockItemView(await items.get(seller, params.sku)) } };
      },
    }),
    route({
      method: 'put',
      path: '/stock/items/:sku',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'putStockItem',
      summary: 'Create or replace one item by its SKU',
      description:
        'The whole item: fields left out take their defaults. An item that already holds exactly this is not written (`result: unchanged`). The search index follows within seconds.',
      tags: ['Stock'],
      schemas: stockItemSchemaNames,
      params: SkuParamsSchema,
      query: SellerQuerySchema,
      body: StockItemBodySchema,
      idempotent: true,
      responses: {
        200: { description: 'Replaced, or already so', schema: writtenSchema },
        201: { description: 'Created', schema: writtenSchema },
      },
      errors: [...STOCK_ERRORS],
      async handler({ principal, params, query, body }) {
        const seller = await sellers.writable(principal, query.seller);
        return written(await items.put(seller, params.sku, rawLineOf(body).raw));
      },
    }),
    route({
      method: 'patch',
      path: '/stock/items/:sku',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'patchStockItem',
      summary: 'Change an item’s price and/or quantity',
      description: 'The commonest change after a sale. The search index follows within seconds.',
      tags: ['Stock'],
      schemas: stockItemSchemaNames,
      params: SkuParamsSchema,
      query: SellerQuerySchema,
      body: StockItemChangesSchema,
      idempotent: true,
      responses: { 200: { description: 'Changed, or already so', schema: writtenSchema } },
      errors: [...STOCK_ERRORS, 'STOCK_ITEM_NOT_FOUND'],
      async handler({ principal, params, query, body }) {
        const seller = await sellers.writable(principal, query.seller);
        return written(await items.patch(seller, params.sku, body));
      },
    }),
    route({
      method: 'delete',
      path: '/stock/items/:sku',
      auth: 'either',
      scope: 'stock:write',
      operationId: 'deleteStockItem',
      summary: 'Remove one item by its SKU',
      tags: ['Stock'],
      schemas: stockItemSchemaNames,
      params: SkuParamsSchema,
      query: SellerQuerySchema,
      idempotent: true,
      responses: {
        200: { description: 'Removed', schema: successBody({ sku: { type: 'string' } }) },
      },
      errors: [...STOCK_ERRORS, 'STOCK_ITEM_NOT_FOUND'],
      async handler({ principal, params, query }) {
        const seller = await sellers.writable(principal, query.seller);
        await items.remove(seller, params.sku);
        return { body: { success: true, sku: params.sku } };
      },
    }),
  ];
}

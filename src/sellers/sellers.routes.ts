import { route, type AnyRoute, type ApiTag } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import { MAX_SELLERS_PER_ACCOUNT, type SellersService } from './sellers.js';
import { NewSellerSchema, SellerChangesSchema, SellerIdSchema } from './sellers.schemas.js';
import { sellerSchema, sellerView } from './sellers.views.js';

export const TAG_SELLERS: ApiTag = {
  name: 'Sellers',
  description:
    'The seller profiles of an account: each holds its own stock, written by feeds and by single-item calls (Stock tag) with a session of the account or an API key with the `stock:write` scope bound to that seller.',
};

/** Named in /openapi.json: one Seller type in generated clients for the three operations. */
const sellerSchemaNames = { Seller: sellerSchema };

/** The account's seller profiles, managed with a Bearer session (the dashboard's seller page). */
export function sellersRoutes({ sellers }: { sellers: SellersService }): AnyRoute[] {
  return [
    route({
      method: 'post',
      path: '/sellers',
      auth: 'bearer',
      operationId: 'registerSeller',
      summary: 'Register a seller profile',
      description: `At most ${MAX_SELLERS_PER_ACCOUNT} per account (409 \`SELLER_LIMIT_REACHED\`). To write its stock with an API key, create one with \`scopes: ["stock:write"]\` and \`seller_id\`.`,
      tags: [TAG_SELLERS],
      schemas: sellerSchemaNames,
      body: NewSellerSchema,
      responses: { 201: { description: 'Seller registered', schema: successBody({ seller: sellerSchema }) } },
      errors: ['SELLER_LIMIT_REACHED'],
      async handler({ principal, body }) {
        const seller = await sellers.register(principal, body);
        return { status: 201, body: { success: true, seller: sellerView(seller) } };
      },
    }),
    route({
      method: 'get',
      path: '/sellers',
      auth: 'bearer',
      operationId: 'listSellers',
      summary: 'List the account’s seller profiles',
      tags: ['Sellers'],
      schemas: sellerSchemaNames,
      responses: {
        200: {
          description: 'The sellers, oldest first',
          schema: successBody({ sellers: { type: 'array', items: sellerSchema } }),
        },
      },
      async handler({ principal }) {
        const list = await sellers.list(principal);
        return { body: { success: true, sellers: list.map(sellerView) } };
      },
    }),
    route({
      method: 'patch',
      path: '/sellers/:id',
      auth: 'bearer',
      operationId: 'updateSeller',
      summary: 'Change a seller profile',
      description: 'A new name reaches the search results of every item of the seller (they are reindexed).',
      tags: ['Sellers'],
      schemas: sellerSchemaNames,
      params: SellerIdSchema,
      body: SellerChangesSchema,
      responses: { 200: { description: 'Seller changed', schema: successBody({ seller: sellerSchema }) } },
      errors: ['SELLER_NOT_FOUND'],
      async handler({ principal, params, body }) {
        const seller = await sellers.update(principal, params.id, body);
        return { body: { success: true, seller: sellerView(seller) } };
      },
    }),
  ];
}

/**
 * An integration through a client generated from GET /openapi.json by @hey-api/openapi-ts
 * (docs/api.md, "Generated clients"): register, log in, create an API key, search, fetch the next
 * page free with the search token, the statistics, the balance and the history, and an error
 * read from its envelope. Run against a server with stock: PSS_BASE_URL=http://localhost:3000.
 *
 * It prints one JSON line with what it saw (test/clients/typescript-client.test.ts reads it) and
 * exits non-zero at the first answer that is not what the document promises.
 */
import { createClient, createConfig } from './generated/client/index.js';
import {
  createApiKey,
  getCreditBalance,
  getSearchStats,
  listCreditHistory,
  login,
  registerAccount,
  searchStock,
} from './generated/sdk.gen.js';
import type { BadRequestError, SearchRequest, SearchResult } from './generated/types.gen.js';

// an integration's own settings (the rule of reading them only in src/config.ts is the API's)
const settings = process.env; // eslint-disable-line no-restricted-properties
const baseUrl = settings.PSS_BASE_URL ?? 'http://localhost:3000';
const make = settings.PSS_VEHICLE_MAKE ?? 'Volkswagen';
const search: SearchRequest = { vehicle_make: make, per_page: 2 };

/** The answer's data, or the end of the example with its error envelope. */
function expectData<T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

async function main(): Promise<void> {
  const anonymous = createClient(createConfig({ baseUrl }));
  const email = `integracao-${Date.now()}@example.com`;
  const password = 'uma-palavra-passe-longa';

  // An account (50 free credits), a session, and an API key for the integration.
  expectData(
    'registerAccount',
    await registerAccount({ client: anonymous, body: { email, password, name: 'ERP' } }),
  );
  const session = expectData('login', await login({ client: anonymous, body: { email, password } }));
  const asOwner = createClient(
    createConfig({ baseUrl, auth: (auth) => (auth.scheme === 'bearer' ? session.access_token : undefined) }),
  );
  const created = expectData(
    'createApiKey',
    await createApiKey({ client: asOwner, body: { name: 'integração', rate_limit_per_minute: 30 } }),
  );
  const asIntegration = createClient(
    createConfig({ baseUrl, auth: (auth) => (auth.type === 'apiKey' ? created.api_key.key : undefined) }),
  );

  // The first page costs 1 credit and brings a token; the next page with it costs nothing.
  const first = await searchStock({ client: asIntegration, body: search });
  const page1: SearchResult = expectData('searchStock', first);
  if (!page1.search_token) throw new Error('a search with results brings a search_token');
  const second = await searchStock({
    client: asIntegration,
    body: { ...search, page: 2, search_token: page1.search_token },
  });
  const page2 = expectData('searchStock (page 2)', second);

  const stats = expectData('getSearchStats', await getSearchStats({ client: asIntegration, body: search }));
  const balance = expectData('getCreditBalance', await getCreditBalance({ client: asOwner }));
  const history = expectData(
    'listCreditHistory',
    await listCreditHistory({ client: asOwner, query: { kind: 'search', per_page: 5 } }),
  );

  // An error: its envelope is typed by status, and a validation error lists each field.
  const refused = await searchStock({ client: asIntegration, body: { ...search, per_page: 1000 } });
  if (refused.response.status !== 400 || !refused.error) throw new Error('per_page 1000 is refused');
  const error = refused.error as BadRequestError;

  console.log(
    JSON.stringify({
      first: {
        credits_spent: page1.credits_spent,
        token_status: first.response.headers.get('X-Search-Token-Status'),
        total: page1.total,
        items: page1.results.map(
          (item) => `${item.referencia_oem} ${item.condicao} ${item.preco} ${item.moeda}`,
        ),
      },
      second: {
        credits_spent: page2.credits_spent,
        token_status: second.response.headers.get('X-Search-Token-Status'),
        page: page2.page,
      },
      stats: {
        credits_spent: stats.credits_spent,
        median: stats.stats.price_median,
        by_condition: stats.stats.by_condition,
      },
      balance: balance.credits,
      history: history.results.map((entry) => [
        entry.kind,
        entry.credits,
        entry.search?.token_status ?? null,
      ]),
      error: {
        code: error.code,
        fields: error.campos?.map((field) => `${field.campo}: ${field.motivo}`) ?? [],
      },
    }),
  );
}

main().catch((failure: unknown) => {
  console.error(failure instanceof Error ? failure.message : failure);
  process.exit(1);
});

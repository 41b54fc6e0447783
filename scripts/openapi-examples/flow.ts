import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ExampleRecorder } from './recorder.js';
import type { Scrubber } from './scrub.js';

/**
 * What an integrator does, in order, through every operation: its answers are the document's
 * examples (the first of each status). Errors are asked for where a client meets them: a field
 * out of range (400 VALIDATION_ERROR and its campos), no credential (401), another's or an unknown
 * resource (404), a spent daily limit (402), a key without the scope (403), a taken e-mail (409).
 * Calls marked `example: 'no'` only prepare or wait.
 */

export interface FlowContext {
  api: ExampleRecorder;
  scrubber: Scrubber;
  /** the repository's root (docs/examples holds the label photo and the feed) */
  root: string;
  /** a reference the demo stock holds from several sellers, with cross-references */
  reference: string;
  /** signs a sandbox checkout's verdict as the sandbox does (X-Payment-Signature) */
  signSandbox(verdict: 'payment.succeeded', reference: string): { rawBody: string; signature?: string };
}

const PASSWORD = 'uma-palavra-passe-longa';

/** Fails the run when a step of the flow does not answer as it must: the examples would be wrong. */
function expectStatus(what: string, answer: { status: number; body: unknown }, status: number): void {
  if (answer.status !== status) {
    throw new Error(
      `openapi-examples: ${what} answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body)}`,
    );
  }
}

export async function runFlow(context: FlowContext): Promise<void> {
  const { api, scrubber } = context;
  const secret = scrubber.secret.bind(scrubber);

  // System
  expectStatus('health', await api.get('/health'), 200);
  expectStatus('ready', await api.get('/ready'), 200);
  // the document itself is not its own example
  await api.get('/openapi.json', { example: 'no' });

  // Authentication: an account, a session, an integration's account and key in one step
  expectStatus(
    'register',
    await api.post('/auth/register', { email: 'ana@example.com', password: PASSWORD, name: 'Ana' }),
    201,
  );
  await api.post('/auth/register', { email: 'ana@example.com', password: PASSWORD, name: 'Ana' });
  await api.post('/auth/register', { email: 'ana@example.com', name: 'Ana' });
  const login = await api.post<{ access_token: string }>('/auth/login', {
    email: 'ana@example.com',
    password: PASSWORD,
  });
  expectStatus('login', login, 200);
  secret(login.body.access_token);
  await api.post('/auth/login', { email: 'ana@example.com', password: 'outra-palavra-passe' });
  const owner = api.withBearer(login.body.access_token);
  const erp = await api.post<{ api_key: { key: string } }>('/data/auth/register-user', {
    email: 'erp@example.com',
    password: 'outra-palavra-passe',
  });
  expectStatus('register-user', erp, 201);
  secret(erp.body.api_key.key);

  // Account
  expectStatus('account', await owner.get('/account'), 200);
  await api.get('/account');
  expectStatus('account patch', await owner.patch('/account', { daily_credit_limit: 500 }), 200);
  await owner.patch('/account', { daily_credit_limit: 'quinhentos' });

  // API keys
  const created = await owner.post<{ api_key: { id: string; key: string } }>('/api-keys', {
    name: 'integração',
    rate_limit_per_minute: 30,
  });
  expectStatus('create key', created, 201);
  secret(created.body.api_key.key);
  const integration = api.withApiKey(created.body.api_key.key);
  expectStatus('keys', await owner.get('/api-keys'), 200);
  expectStatus(
    'key patch',
    await owner.patch(`/api-keys/${created.body.api_key.id}`, {
      rate_limit_per_hour: 500,
      daily_credit_limit: 200,
    }),
    200,
  );
  await owner.patch('/api-keys/999999', { name: 'outra' });
  const spare = await owner.post<{ api_key: { id: string; key: string } }>(
    '/api-keys',
    { name: 'temporária' },
    { example: 'no' },
  );
  secret(spare.body.api_key.key);
  expectStatus('key revoke', await owner.delete(`/api-keys/${spare.body.api_key.id}`), 200);
  await owner.delete(`/api-keys/${spare.body.api_key.id}`);

  // Search: a first page (1 credit, a token), the next page free with the token, the statistics
  const search = { reference: context.reference, per_page: 2 };
  const first = await integration.post<{ search_token: string; total: number }>('/data/search', search);
  expectStatus('search', first, 200);
  secret(first.body.search_token);
  if (first.body.total <= 2) throw new Error('openapi-examples: the sample reference has no second page');
  const next = await integration.post('/data/search', {
    ...search,
    page: 2,
    search_token: first.body.search_token,
  });
  expectStatus('search, page 2', next, 200);
  await integration.post('/data/search', { reference: context.reference, per_page: 500 });
  await api.post('/data/search', search);
  expectStatus('stats', await integration.post('/data/search/stats', { reference: context.reference }), 200);
  await integration.post('/data/search/stats', { reference: context.reference, condition: 'como_novo' });

  // 402: the integration's account limited to 1 credit a day, spent by a first search
  const erpLogin = await api.post<{ access_token: string }>(
    '/auth/login',
    { email: 'erp@example.com', password: 'outra-palavra-passe' },
    { example: 'no' },
  );
  secret(erpLogin.body.access_token);
  await api
    .withBearer(erpLogin.body.access_token)
    .patch('/account', { daily_credit_limit: 1 }, { example: 'no' });
  const erpKey = api.withApiKey(erp.body.api_key.key);
  const spend = await erpKey.post('/data/search', search, { example: 'no' });
  expectStatus('the daily credit', spend, 200);
  // the same search again without its token: a first search, over the limit
  expectStatus('402 search', await erpKey.post('/data/search', search), 402);
  expectStatus('402 stats', await erpKey.post('/data/search/stats', { reference: context.reference }), 402);

  // Errors true of every operation: a body too large, a body not JSON, a rate limit reached
  await integration.post('/data/search', { text: 'x'.repeat(40_000) }, { example: 'shared' });
  await integration.post('/data/search', undefined, {
    rawBody: 'reference=7701442136',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    example: 'shared',
  });
  const slow = await owner.post<{ api_key: { key: string } }>(
    '/api-keys',
    { name: 'lenta', rate_limit_per_minute: 1 },
    { example: 'no' },
  );
  secret(slow.body.api_key.key);
  await api.withApiKey(slow.body.api_key.key).get('/tools', { example: 'no' });
  expectStatus('429', await api.withApiKey(slow.body.api_key.key).get('/tools', { example: 'shared' }), 429);

  // Credits
  expectStatus('balance', await owner.get('/data/credits/balance'), 200);
  expectStatus('history', await owner.get('/data/credits/history?kind=search&per_page=2'), 200);
  await owner.get('/data/credits/history?from=2026-12-31T00:00:00Z&to=2026-01-01T00:00:00Z');
  expectStatus('packages', await api.get('/data/credits/packages'), 200);
  await payments(context, owner);

  await catalogs(api);
  await tools(context, integration);
  await stock(context, owner, api);

  // a second session, ended
  const other = await api.post<{ access_token: string }>(
    '/auth/login',
    { email: 'ana@example.com', password: PASSWORD },
    { example: 'no' },
  );
  secret(other.body.access_token);
  expectStatus('logout', await api.withBearer(other.body.access_token).post('/auth/logout'), 200);
  await api.withBearer(other.body.access_token).post('/auth/logout');
}

/** A purchase paid on the sandbox's page, one cancelled, one credited by the sandbox's webhook. */
async function payments(context: FlowContext, owner: ExampleRecorder): Promise<void> {
  const { api, scrubber } = context;
  const purchase = async (example: 'first' | 'no' = 'no') => {
    const started = await owner.post<{ reference: string; payment_id: string }>(
      '/data/credits/purchase',
      { package_id: 'starter' },
      { example },
    );
    expectStatus('purchase', started, 201);
    scrubber.secret(started.body.reference);
    scrubber.secret(started.body.payment_id);
    return started.body.reference;
  };
  const paid = await purchase('first');
  await owner.post('/data/credits/purchase', { package_id: 'platina' });
  await api.get(`/payments/sandbox/checkout/${paid}`);
  await api.get('/payments/sandbox/checkout/pay_000000000000');
  expectStatus('pay', await api.post(`/payments/sandbox/checkout/${paid}/pay`), 303);
  const cancelled = await purchase();
  expectStatus('cancel', await api.post(`/payments/sandbox/checkout/${cancelled}/cancel`), 303);
  const delivered = context.signSandbox('payment.succeeded', await purchase());
  const webhook = await api.post('/payments/webhook', undefined, {
    rawBody: delivered.rawBody,
    headers: { 'X-Payment-Signature': delivered.signature ?? '' },
  });
  expectStatus('sandbox webhook', webhook, 200);
  await api.post('/payments/webhook', undefined, { rawBody: delivered.rawBody });
  // this server's provider is the sandbox: Stripe's webhook is not active here (its 200: stripeFlow)
  await api.post('/payments/stripe/webhook', undefined, {
    rawBody: JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: { object: {} } }),
    headers: { 'Stripe-Signature': 't=1,v1=0' },
  });
}

/** Every catalog list, a page of a few entries, the vehicle catalog followed down to engines. */
async function catalogs(api: ExampleRecorder): Promise<void> {
  const page = async <T>(path: string) => {
    const answer = await api.get<{ results: T[] }>(path);
    expectStatus(path, answer, 200);
    return answer.body.results;
  };
  await page('/data/catalog/parts?q=travao&lang=pt&per_page=3');
  await api.get('/data/catalog/parts?per_page=1000');
  const [brand] = await page<{ name: string }>('/data/catalog/brands?per_page=3');
  const [model] = await page<{ name: string }>(
    `/data/catalog/models/${encodeURIComponent(brand!.name)}?per_page=3`,
  );
  await page(`/data/catalog/variants/${encodeURIComponent(model!.name)}?per_page=3`);
  const [make] = await page<{ id: number }>('/data/catalog/vehicle-makes?q=volkswagen');
  const [golf] = await page<{ id: number }>(`/data/catalog/vehicle-models/${make!.id}?q=golf%20vii`);
  await api.get('/data/catalog/vehicle-models/999999');
  const [variant] = await page<{ id: number }>(`/data/catalog/vehicle-variants/${golf!.id}?per_page=2`);
  await page(`/data/catalog/vehicle-engines/${variant!.id}?per_page=3`);
  for (const list of [
    'types',
    'groups',
    'locations',
    'sides',
    'quality',
    'packaging',
    'labelling',
    'fuels',
  ]) {
    await page(`/data/catalog/${list}?lang=en&per_page=3`);
  }
  await page('/data/catalog/conditions?lang=en');
  await page('/data/catalog/languages');
  await page('/data/catalog/countries?lang=de&q=osterreich');
}

/** The tool reads the label photographed in docs/examples (made smaller: the example stays short). */
async function tools(context: FlowContext, integration: ExampleRecorder): Promise<void> {
  expectStatus('tools', await integration.get('/tools'), 200);
  const photo = await sharp(join(context.root, 'docs', 'examples', 'etiqueta.jpg'))
    .resize({ width: 480 })
    .jpeg({ quality: 60 })
    .toBuffer();
  const image = `data:image/jpeg;base64,${photo.toString('base64')}`;
  const run = await integration.post('/tools/execute', {
    slug: 'identificar-peca',
    input: { image, description: 'disco de travão' },
  });
  expectStatus('tool', run, 200);
  await integration.post('/tools/execute', { slug: 'identificar-motor', input: {} });
}

/** A seller, its items by SKU, a feed with a line it rejects, and the keys that may and may not write. */
async function stock(context: FlowContext, owner: ExampleRecorder, api: ExampleRecorder): Promise<void> {
  const seller = await owner.post<{ seller: { id: string } }>('/sellers', {
    name: 'Peças Ana',
    country: 'PT',
    city: 'Lisboa',
  });
  expectStatus('seller', seller, 201);
  const sellerId = seller.body.seller.id;
  expectStatus('sellers', await owner.get('/sellers'), 200);
  expectStatus('seller patch', await owner.patch(`/sellers/${sellerId}`, { city: 'Porto' }), 200);
  await owner.patch('/sellers/999999', { city: 'Porto' });

  const writer = await owner.post<{ api_key: { key: string } }>(
    '/api-keys',
    { name: 'loja', scopes: ['stock:write'], seller_id: sellerId },
    { example: 'no' },
  );
  context.scrubber.secret(writer.body.api_key.key);
  const shop = api.withApiKey(writer.body.api_key.key);
  const searchOnly = await owner.post<{ api_key: { key: string } }>(
    '/api-keys',
    { name: 'só pesquisa', scopes: ['search'] },
    { example: 'no' },
  );
  context.scrubber.secret(searchOnly.body.api_key.key);

  const item = {
    reference: '1K0 129 620 D',
    title: 'Filtro de ar',
    description: 'Caixa original, sem uso',
    condition: 'novo',
    price: 12.5,
    quantity: 3,
    is_oem: true,
    vehicle_make: 'Volkswagen',
    vehicle_model: 'Golf',
    references: ['A 123 456', 'WA9567'],
  };
  expectStatus('put item', await shop.put('/stock/items/FIL-4711', item), 201);
  expectStatus('put item again', await shop.put('/stock/items/FIL-4711', item), 200);
  await api.withApiKey(searchOnly.body.api_key.key).put('/stock/items/FIL-4711', item);
  expectStatus('patch item', await shop.patch('/stock/items/FIL-4711', { price: 11.9, quantity: 2 }), 200);
  await shop.patch('/stock/items/FIL-4711', { price: -1 });
  expectStatus('item', await shop.get('/stock/items/FIL-4711'), 200);
  await shop.get('/stock/items/FIL-0000');
  expectStatus('items', await owner.get(`/stock/items?seller=${sellerId}&per_page=10`), 200);
  await owner.get('/stock/items');

  expectStatus('template', await api.get('/stock/feeds/template.csv'), 200);
  // the documented example feed, and a line a feed rejects (no price)
  const feedText = `${readFileSync(join(context.root, 'docs', 'examples', 'feed-exemplo.csv'), 'utf8').trimEnd()}\nPAS-0100;3C0 698 151 A;Pastilhas de travão;;novo;;EUR;2;;;;;;;;\n`;
  const sent = await shop.post<{ feed: { id: string } }>('/stock/feeds?mode=delta', undefined, {
    rawBody: feedText,
    headers: { 'Content-Type': 'text/csv' },
  });
  expectStatus('feed', sent, 202);
  await shop.post('/stock/feeds?mode=delta', undefined, {
    rawBody: '{"sku":"X"}',
    headers: { 'Content-Type': 'application/json' },
  });
  const feedPath = `/stock/feeds/${sent.body.feed.id}`;
  await untilDone(() => shop.get<{ feed: { status: string } }>(feedPath, { example: 'no' }));
  expectStatus('feed state', await shop.get(feedPath), 200);
  expectStatus('feed errors', await shop.get(`${feedPath}/errors`), 200);
  await shop.get('/stock/feeds/999999');
  expectStatus('feeds', await shop.get('/stock/feeds?per_page=5'), 200);
  expectStatus('delete item', await shop.delete('/stock/items/FIL-4711'), 200);
  await shop.delete('/stock/items/FIL-4711');
}

/** Waits for the in-process feed worker to finish a feed (it applies it within a second or two). */
async function untilDone(read: () => Promise<{ body: { feed: { status: string } } }>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { status } = (await read()).body.feed;
    if (['done', 'refused', 'failed'].includes(status)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('openapi-examples: the feed was not applied within 30 s');
}

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { seedCatalog } from '../../src/catalog/seed.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { accessibleShot, tabTo as tabToTarget } from '../helpers/page-checks.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_CHROMIUM } from '../helpers/test-env.js';
import { buildWebOnce } from '../helpers/web-build.js';

/**
 * The dashboard and /docs in a real browser: Debian's chromium driven by playwright-core (no
 * browser is ever downloaded). Without it the file is skipped, saying why; in CI it must be there.
 * Screenshots of every page go to test-output/screenshots/.
 */
// Without chromium the run's global setup says the file is skipped, or (CI=true) refuses the run.
const CHROMIUM = TEST_CHROMIUM;
const SHOTS = join(process.cwd(), 'test-output', 'screenshots');
/** A port nothing listens on now, for an app that must know its address before it starts. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

describe.skipIf(!existsSync(CHROMIUM))('dashboard and /docs in chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  const cspViolations: string[] = [];
  const email = `ana-${Date.now()}@example.com`;
  const password = 'uma-palavra-passe-longa';
  let apiKey = '';

  const screenshot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const shot = (name: string) => accessibleShot(page, SHOTS, name);
  const tabTo = (target: Locator, options?: { backwards?: boolean }) => tabToTarget(page, target, options);
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  /** The usage chart's figures for one day, as its table shows them (the columns by their headers). */
  const chartDay = async (day: string) => {
    const table = page.getByTestId('chart-figures');
    const headers = await table.locator('thead th').allTextContents();
    const cells = await table
      .locator('tbody tr', { has: page.locator('th', { hasText: day }) })
      .locator('th, td');
    const values = await cells.allTextContents();
    return Object.fromEntries(headers.map((header, index) => [header, values[index]]));
  };
  const bearer = () =>
    page.evaluate(() => JSON.parse(sessionStorage.getItem('pss.session') ?? '{}').token as string);
  const balance = async () => {
    const answer = await fetch(`${app.baseUrl}/data/credits/balance`, {
      headers: { Authorization: `Bearer ${await bearer()}` },
    });
    return ((await answer.json()) as { credits: number }).credits;
  };

  /**
   * Codes of the API a person should never read in the Portuguese pages: the ledger's kinds, the
   * search token's states. Found as whole words of the visible text.
   */
  const RAW_CODES = /\b(signup|search|stats|purchase|adjustment|none|valid|expired|invalid|mismatch)\b/g;
  const rawCodes = async () => (await page.evaluate(() => document.body.innerText)).match(RAW_CODES) ?? [];
  /** Money as Portuguese writes it, the one format of every page: "1 234,50 €". */
  const MONEY_PT = /^\d{1,3}(\s\d{3})*,\d{2}\s€$/;
  /** How many lines an element's text takes (its line boxes, by their tops). */
  const linesOf = (locator: Locator) =>
    locator.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
  /** A chart's drawing as wide as the card it sits in (uPlot draws to the width it was given). */
  const chartFillsCard = (chart: Locator) =>
    chart.evaluate((card) => {
      const drawing = card.querySelector('.uplot')!.getBoundingClientRect().width;
      return drawing / card.getBoundingClientRect().width;
    });

  beforeAll(async () => {
    await buildWebOnce();
    mkdirSync(SHOTS, { recursive: true });
    // The sandbox checkout returns to PUBLIC_BASE_URL, so the app must know its own address first.
    const port = await freePort();
    app = await startTestApp({
      port,
      env: {
        PAYMENT_PROVIDER: 'sandbox',
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        RATE_LIMIT_PER_MINUTE: '600',
      },
    });
    await seedCatalog(app.services.db); // the parts for the playground's type-ahead
    await loadStockFixture(app.services.db);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const context = await browser.newContext({
      baseURL: app.baseUrl,
      viewport: { width: 1200, height: 900 },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('serves an icon at /favicon.ico, for the dashboard and /docs alike', async () => {
    const icon = await fetch(`${app.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await icon.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]); // an .ico file's header
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('serves the app with its CSP, index.html no-cache and hashed assets immutable', async () => {
    const index = await fetch(`${app.baseUrl}/dashboard/keys`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const js = await fetch(app.baseUrl + asset);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${app.baseUrl}/dashboard/assets/nope.js`)).status).toBe(404);
  });

  it('signs up (a refusal shown beside its field, what was typed kept), then lands on the home page', async () => {
    await page.goto('/dashboard');
    await page.waitForURL(/\/dashboard\/login\?next=/);
    await shot('01-login');
    await page.getByRole('link', { name: 'Criar conta' }).click();
    await page.getByLabel('Nome').fill('Ana');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Palavra-passe').fill('curta');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    const error = page.locator('[data-field="password"]');
    await expect.poll(() => error.textContent()).toMatch(/password|palavra|caracteres/i);
    expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
    await shot('02-register-refused');
    await page.getByLabel('Palavra-passe').fill(password);
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('50');
    await shot('03-home');
  });

  it('logs out and back in', async () => {
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(/\/dashboard\/login/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Palavra-passe').fill(password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('50');
  });

  it('creates a key (shown once) and refuses a limit above the plan beside its field', async () => {
    await page.getByRole('link', { name: 'Chaves de API' }).click();
    await page.getByLabel('Nome da chave').fill('playground');
    await page.getByRole('button', { name: 'Criar chave' }).click();
    apiKey = (await page.getByTestId('new-key').textContent())!;
    expect(apiKey).toMatch(/^psk_/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await shot('04-keys-created');

    await page.getByRole('button', { name: 'Editar limites' }).click();
    const perMinute = page.locator('tbody').getByLabel('Pedidos por minuto');
    await perMinute.fill('5000');
    await page.locator('tbody').getByRole('button', { name: 'Guardar' }).click();
    const error = page.locator('tbody [data-field="rate_limit_per_minute"]');
    await expect.poll(() => error.textContent()).toContain('600');
    expect(await perMinute.inputValue()).toBe('5000');
    await shot('05-keys-limit-refused');
    await perMinute.fill('100');
    await page.locator('tbody').getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.locator('tbody').textContent()).toContain('100/min');
  });

  it('searches with the key in the playground, then pages with the token for free', async () => {
    await page.getByRole('link', { name: 'Pesquisa' }).click();
    await expect.poll(() => page.getByLabel('Credencial').inputValue()).toBe('key:0');
    await page.getByLabel('Referência').fill('1K0 615 301 AA');
    await page.getByLabel('Por página').fill('1');
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    await expect.poll(() => page.getByTestId('spent').textContent()).toContain('Créditos gastos: 1');
    expect(await page.getByTestId('page').textContent()).toMatch(/Página 1 de [2-9]/);
    const after = await balance();
    expect(after).toBe(49);
    await shot('06-playground-search');

    await page.getByRole('button', { name: /Seguinte/ }).click();
    await expect.poll(() => page.getByTestId('page').textContent()).toMatch(/Página 2 de/);
    expect(await page.getByTestId('spent').textContent()).toContain('Créditos gastos: 0');
    expect(await page.getByTestId('spent').textContent()).toContain('Token de pesquisa: válido');
    expect(await balance()).toBe(after);
    // in Portuguese throughout: no code of the API, conditions by their names, prices in euros on one line
    expect(await rawCodes()).toEqual([]);
    expect(await page.locator('table.responsive tbody').textContent()).not.toMatch(/usado_bom|para_pecas/);
    // ...also when a narrow window squeezes the table's columns
    const prices = page.getByTestId('price');
    expect(await prices.count()).toBeGreaterThan(0);
    for (const width of [1200, 700]) {
      await page.setViewportSize({ width, height: 900 });
      for (const price of await prices.all()) {
        expect(await price.textContent()).toMatch(MONEY_PT);
        expect(await linesOf(price), `${width} px`).toBe(1);
      }
    }
    await page.setViewportSize({ width: 1200, height: 900 });

    // The pickers come from the catalogs: makes and models with stock, parts as one types.
    const makes = page.getByLabel('Marca do veículo').locator('option');
    await expect.poll(() => makes.count()).toBeGreaterThan(1);
    const volkswagen = (
      await makes.evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? ''))
    ).find((value) => /^volkswagen$/i.test(value))!;
    await page.getByLabel('Marca do veículo').selectOption(volkswagen);
    await expect
      .poll(async () => (await page.getByLabel('Modelo').locator('option').allTextContents()).join('|'))
      .toMatch(/Golf VII/i);
    const parts = await fetch(`${app.baseUrl}/data/catalog/parts?per_page=1`);
    const part = ((await parts.json()) as { results: { name: string }[] }).results[0]!.name;
    await page.getByLabel('Peça do catálogo').fill(part.slice(0, 5));
    await expect
      .poll(() => page.locator('#parts-list option').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await page.getByLabel('Peça do catálogo').fill('');
    await page.getByLabel('Marca do veículo').selectOption('');

    await page.getByRole('button', { name: 'Estatísticas (1 crédito)' }).click();
    const histogram = page.getByRole('img', { name: 'Histograma de preços' });
    await histogram.waitFor();
    await page.getByRole('button', { name: 'Copiar como curl' }).click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain(`X-API-Key: ${apiKey}`);
    expect(curl).toContain('/data/search/stats');
    // the request as it was sent, to this page's own address, the JSON whole within its quotes
    expect(curl).toContain(`curl -s -X POST ${app.baseUrl}/data/search/stats `);
    expect(curl).toContain(`-d '{"reference":"1K0 615 301 AA","per_page":1}'`);
    expect(await page.getByText(/Vendedores: \d+/).count()).toBe(1);
    // the statistics: money as everywhere else, the chart across its card, countries by name, largest first
    const amounts = page.locator('[data-testid="stats-summary"] .money, table:has(caption) td.money');
    expect(await amounts.count()).toBeGreaterThan(4);
    for (const amount of await amounts.all()) expect(await amount.textContent()).toMatch(MONEY_PT);
    expect(await chartFillsCard(histogram)).toBeGreaterThan(0.97);
    expect(await rawCodes()).toEqual([]);
    await shot('07-playground-stats');

    // the statistics of a make's whole stock: its countries by name, the one with most items first
    await page.getByLabel('Referência').fill('');
    await page.getByLabel('Marca do veículo').selectOption(volkswagen);
    await page.getByRole('button', { name: 'Estatísticas (1 crédito)' }).click();
    const byCountry = page.locator('table', { has: page.locator('caption', { hasText: 'Por país' }) });
    const countriesShown = () =>
      byCountry.locator('tbody tr').evaluateAll((rows) =>
        rows.map((row) => ({
          name: row.querySelector('th')!.textContent!,
          count: Number(row.querySelector('td')!.textContent),
        })),
      );
    await expect
      .poll(async () => new Set((await countriesShown()).map((c) => c.count)).size)
      .toBeGreaterThan(1);
    const countries = await countriesShown();
    expect(countries).toEqual(
      [...countries].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'pt')),
    );
    expect(countries.map((c) => c.name).sort()).toEqual(['Alemanha', 'Espanha', 'França', 'Portugal']);
    await page.getByLabel('Marca do veículo').selectOption('');
    await page.getByLabel('Referência').fill('1K0 615 301 AA');

    // with the session as the credential, the copied command names a variable, never the token
    await page.getByLabel('Credencial').selectOption('bearer');
    await page.getByRole('button', { name: 'Copiar como curl' }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain('Authorization: Bearer $PSS_SESSION_TOKEN');
    const sessionCurl = await page.evaluate(() => navigator.clipboard.readText());
    expect(sessionCurl).not.toContain(await bearer());
    // and no key either; its body is still the last request's (the make's statistics), not the form's
    expect(sessionCurl).not.toContain(apiKey);
    expect(sessionCurl).toContain(`"vehicle_make":"${volkswagen}"`);
    // the note about the token reads across the form, not squeezed into one of its columns
    const hint = page.getByTestId('curl-session-hint');
    const [hintWidth, formWidth] = await hint.evaluate((element) => [
      element.getBoundingClientRect().width,
      element.closest('form')!.getBoundingClientRect().width,
    ]);
    expect(hintWidth / formWidth).toBeGreaterThan(0.9);
    expect(await linesOf(hint)).toBeLessThanOrEqual(2);
    // and every choice of credential is read whole ("Sessão atual (Bearer)", the key's name)
    const cut = await page.getByLabel('Credencial').evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const measure = document.createElement('canvas').getContext('2d')!;
      measure.font = style.font;
      const room =
        select.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return [...select.options]
        .map((o) => o.text)
        .filter((text) => measure.measureText(text).width > room - 16);
    });
    expect(cut).toEqual([]);
    await shot('07b-playground-session-curl');
    await page.getByLabel('Credencial').selectOption('key:0');
  });

  it('sets a daily limit on the home page and hits it in the playground (the API message shown)', async () => {
    await page.getByRole('link', { name: 'Início' }).click();
    await page.getByLabel('Limite diário da conta (créditos)').fill('2');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByTestId('daily-limit').textContent()).toBe('2');
    await page.getByRole('link', { name: 'Pesquisa' }).click();
    await page.getByLabel('Texto livre').fill('Bremsscheibe');
    await page.getByRole('button', { name: 'Pesquisar' }).click();
    const refused = page.locator('[data-code="DAILY_LIMIT_REACHED"]');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/limite diário/i);
    expect(await page.getByLabel('Texto livre').inputValue()).toBe('Bremsscheibe');
    await shot('08-daily-limit-reached');
  });

  it('shows the usage history and its chart', async () => {
    await page.getByRole('link', { name: 'Utilização' }).click();
    const chart = page.getByRole('img', { name: 'Créditos e pesquisas por dia' });
    await chart.waitFor();
    expect(await chartFillsCard(chart)).toBeGreaterThan(0.97);
    const history = page.locator('table.responsive tbody');
    await expect.poll(() => history.locator('tr').count()).toBeGreaterThanOrEqual(4);
    // every kind of entry, and each search's token, in words: no code of the API
    expect(await history.textContent()).toContain('Criação da conta');
    expect(await history.textContent()).toContain('token de pesquisa nenhum');
    expect(await rawCodes()).toEqual([]);
    await page.getByLabel('Tipo').selectOption('search');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(async () => (await history.textContent())!.includes('Criação da conta')).toBe(false);
    const kinds = await history
      .locator('td[data-kind]')
      .evaluateAll((cells) => cells.map((cell) => `${cell.getAttribute('data-kind')}: ${cell.textContent}`));
    expect(new Set(kinds)).toEqual(new Set(['search: Pesquisa']));
    expect(await rawCodes()).toEqual([]);
    await shot('09-usage');
  });

  it('pages through the usage history, 20 entries a page, the filter kept on every page', async () => {
    // lift the day's limit set above, then enough searches (through the API) for two pages
    const headers = { Authorization: `Bearer ${await bearer()}`, 'Content-Type': 'application/json' };
    const lifted = await fetch(`${app.baseUrl}/account`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ daily_credit_limit: null }),
    });
    expect(lifted.status).toBe(200);
    for (let n = 0; n < 21; n++) {
      const searched = await fetch(`${app.baseUrl}/data/search`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text: `pastilhas ${n}` }),
      });
      expect(searched.status).toBe(200);
    }
    const counted = await fetch(`${app.baseUrl}/data/credits/history?kind=search&per_page=1`, { headers });
    const searches = ((await counted.json()) as { total: number }).total;
    expect(searches).toBeGreaterThan(20);
    const pages = Math.ceil(searches / 20);

    await page.reload();
    await page.getByLabel('Tipo').selectOption('search');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const rows = page.locator('table.responsive tbody tr');
    const pager = page.getByRole('navigation', { name: 'Utilização' });
    await expect.poll(() => pager.textContent()).toContain(`Página 1 de ${pages}`);
    expect(await rows.count()).toBe(20);
    const firstPage = await rows.allTextContents();
    expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);

    await pager.getByRole('button', { name: 'Seguinte' }).click();
    await expect.poll(() => pager.textContent()).toContain(`Página 2 de ${pages}`);
    await expect.poll(() => rows.count()).toBe(pages === 2 ? searches - 20 : 20);
    const secondPage = await rows.allTextContents();
    expect(secondPage.every((row) => row.includes('Pesquisa'))).toBe(true);
    expect(secondPage.filter((row) => firstPage.includes(row))).toEqual([]);
    await shot('09b-usage-page-2');

    await pager.getByRole('button', { name: 'Anterior' }).click();
    await expect.poll(() => pager.textContent()).toContain(`Página 1 de ${pages}`);
    await expect.poll(() => rows.allTextContents()).toEqual(firstPage);
  });

  it('revokes the key after a confirmation; a search with it then gets 401', async () => {
    await page.getByRole('link', { name: 'Chaves de API' }).click();
    await page.getByRole('button', { name: 'Revogar' }).click();
    await shot('10-keys-confirm-revoke');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => page.locator('tbody').textContent()).toContain('Revogada');
    const answer = await fetch(`${app.baseUrl}/data/search`, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reference: '1K0 615 301 AA' }),
    });
    expect(answer.status).toBe(401);
  });

  it('buys credits: the sandbox checkout, pay, back on the dashboard with the new balance', async () => {
    // today's column of the usage chart before buying: nothing bought yet
    const today = app.clock.now().toISOString().slice(0, 10);
    await page.getByRole('link', { name: 'Utilização' }).click();
    await page.getByText('Os números do gráfico').click();
    await expect.poll(async () => (await chartDay(today))['Créditos comprados']).toBe('0');

    await page.getByRole('link', { name: 'Comprar créditos' }).click();
    const packagePrices = page.locator('.packages .money');
    await expect.poll(() => packagePrices.count()).toBeGreaterThan(0);
    for (const price of await packagePrices.all()) expect(await price.textContent()).toMatch(MONEY_PT);
    const starterPrice = await page
      .locator('.packages li', { hasText: 'Starter' })
      .locator('.money')
      .textContent();
    await shot('11-buy');
    const before = await balance();
    await page.getByRole('button', { name: 'Comprar Starter' }).click();
    await page.waitForURL(/\/payments\/sandbox\/checkout\//);
    // the checkout writes the price as the credits page did: one money format
    expect(await page.locator('dt:text-is("Preço") + dd').textContent()).toBe(starterPrice);
    await shot('12-sandbox-checkout');
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL(/\/dashboard\/credits\?checkout=success&payment=pay_/);
    await page.getByTestId('returned').waitFor();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe(String(before + 500));
    expect(await balance()).toBe(before + 500);
    await shot('13-buy-returned');

    // the history has moved: the purchase, found by its kind within today's dates (the app's clock)
    await page.getByRole('link', { name: 'Utilização' }).click();
    await page.getByLabel('Tipo').selectOption('purchase');
    await page.getByLabel('Desde').fill(today);
    await page.getByLabel('Até').fill(today);
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const rows = page.locator('table.responsive tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Compra');
    expect(await rows.first().textContent()).toContain('500');
    expect(await rawCodes()).toEqual([]);
    // and so has the chart: today's bar of credits bought
    await page.getByRole('img', { name: 'Créditos e pesquisas por dia' }).waitFor();
    await page.getByText('Os números do gráfico').click();
    await expect.poll(async () => (await chartDay(today))['Créditos comprados']).toBe('500');
    await shot('13b-usage-after-buying');
  });

  it('an ended session returns to the login, then to where the person was', async () => {
    await fetch(`${app.baseUrl}/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await bearer()}` },
    });
    await page.getByRole('link', { name: 'Chaves de API' }).click();
    await page.waitForURL(/\/dashboard\/login\?expired=1&next=/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Palavra-passe').fill(password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard\/keys$/);
  });

  it('is usable by keyboard alone: skip link, log out, log in, create a key, copy it, revoke it', async () => {
    await page.goto('/dashboard');
    await page.getByTestId('balance').waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Saltar para o conteúdo');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab'); // the skip link led past the navigation, into the page
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);

    // the navigation comes before the page's content
    await tabTo(page.getByRole('button', { name: 'Sair' }), { backwards: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/login/);
    await tabTo(page.getByLabel('E-mail'));
    await page.keyboard.type(email);
    await tabTo(page.getByLabel('Palavra-passe'));
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard$/);

    await tabTo(page.getByRole('link', { name: 'Chaves de API' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/keys$/);
    await tabTo(page.getByLabel('Nome da chave'));
    await page.keyboard.type('teclado');
    await page.keyboard.press('Enter');
    const created = (await page.getByTestId('new-key').textContent())!;
    expect(created).toMatch(/^psk_/);
    await tabTo(page.getByRole('button', { name: 'Copiar', exact: true }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(created);

    const row = page.locator('tbody tr', { hasText: 'teclado' });
    await tabTo(row.getByRole('button', { name: 'Revogar' }));
    await page.keyboard.press('Enter');
    // the confirmation takes the focus, on its safe choice; cancelling, or Escape, gives it back
    await expect.poll(focusedText).toBe('Cancelar');
    await page.keyboard.press('Enter');
    await expect.poll(focusedText).toBe('Revogar');
    await page.keyboard.press('Enter');
    await expect.poll(focusedText).toBe('Cancelar');
    await page.keyboard.press('Escape');
    await expect.poll(focusedText).toBe('Revogar');
    await page.keyboard.press('Enter');
    await expect.poll(focusedText).toBe('Cancelar');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText()).toBe('Confirmar');
    await page.keyboard.press('Enter');
    await expect.poll(() => row.textContent()).toContain('Revogada');
    // and the focus stays in the row, on the cell that now says so
    await expect.poll(focusedText).toMatch(/^Revogada/);
    const answer = await fetch(`${app.baseUrl}/data/search`, {
      method: 'POST',
      headers: { 'X-API-Key': created, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reference: '1K0 615 301 AA' }),
    });
    expect(answer.status).toBe(401);
  });

  it('switches to English and fits a phone width', async () => {
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('link', { name: 'API keys' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('14-keys-phone-en');
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.getByLabel('Language').selectOption('pt');
  });

  it('loaded every dashboard page without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });

  it('/docs renders every path of /openapi.json', async () => {
    const spec = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    const paths = Object.keys(spec.paths);
    const docs = await fetch(`${app.baseUrl}/docs`);
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
    await page.goto('/docs');
    await page
      .locator('.scalar-app, .scalar-api-reference, [class*="scalar"]')
      .first()
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(
        async () => {
          const text = (await page.evaluate(() => document.body.innerText)).replace(/\s+/g, '');
          return paths.filter((path) => !text.includes(path.replace(/\s+/g, '')));
        },
        { timeout: 30_000 },
      )
      .toEqual([]);
    // Screenshot only: /docs is Scalar's page, whose own markup axe faults (unnamed icon buttons,
    // contrast of its method badges); ours are checked on every dashboard page above.
    await screenshot('15-docs');
    expect(cspViolations).toEqual([]);
  });
});

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { accessibleShot, tabTo as tabToTarget } from '../helpers/page-checks.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_CHROMIUM } from '../helpers/test-env.js';
import { buildWebOnce } from '../helpers/web-build.js';

/**
 * The dashboard's seller page in Debian's chromium (playwright-core; no browser is downloaded):
 * a seller registered and edited, a stock file uploaded with its progress, followed live until the
 * app's own feed worker (FEEDS_IN_PROCESS) has applied it, the history, the error report
 * downloaded, a refused full feed, the upload form by keyboard alone, English at a phone's width.
 * Each state is checked by axe-core where its screenshot is taken (test-output/screenshots/).
 */
const CHROMIUM = TEST_CHROMIUM;
const SHOTS = join(process.cwd(), 'test-output', 'screenshots');
/** Items in the uploaded file; its third line (the header is line 1) is the one refused. */
const GOOD_LINES = 1500;
const BAD_LINE = 'BAD-1,REF-BAD,Peça com preço negativo,novo,-3,1';
const STOCK_CSV = [
  'sku,reference,title,condition,price,quantity',
  'A-0000,REF-0000,Peça 0,novo,10.00,1',
  BAD_LINE,
  ...Array.from(
    { length: GOOD_LINES - 1 },
    (_, i) => `A-${String(i + 1).padStart(4, '0')},REF-${i + 1},Peça ${i + 1},novo,${(i % 90) + 1}.50,2`,
  ),
].join('\n');
const REPORT = '\uFEFFlinha,sku,campo,mensagem\r\n3,BAD-1,preco,O preço não pode ser negativo: -3.\r\n';
/** A feed's states, modes and formats as the API writes them: never shown as such in Portuguese. */
const RAW_CODES = /\b(received|validating|applying|done|refused|failed|full|delta|jsonl|dry_run)\b/g;
/** Long enough for the in-process worker (it looks for feeds every second) on a loaded machine. */
const FEED_DEADLINE = { timeout: 60_000, interval: 200 };

describe.skipIf(!existsSync(CHROMIUM))('the seller page in chromium', () => {
  let app: TestApp;
  let account: TestAccount;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  const cspViolations: string[] = [];

  const shot = (name: string) => accessibleShot(page, SHOTS, name);
  const tabTo = (target: Locator, options?: { backwards?: boolean }) => tabToTarget(page, target, options);
  const rawCodes = async () => (await page.evaluate(() => document.body.innerText)).match(RAW_CODES) ?? [];
  const bearer = () =>
    page.evaluate(() => JSON.parse(sessionStorage.getItem('pss.session') ?? '{}').token as string);
  const apiGet = async <T>(path: string) => {
    const answer = await fetch(`${app.baseUrl}${path}`, {
      headers: { Authorization: `Bearer ${await bearer()}` },
    });
    expect(answer.status, path).toBe(200);
    return (await answer.json()) as T;
  };

  const profile = () => page.getByTestId('seller-profile');
  const card = () => page.getByTestId('feed');
  const cardStatus = () => page.getByTestId('feed-status').textContent();
  const cardCount = (name: string) => card().locator(`dd[data-count="${name}"]`).textContent();
  const historyRows = () => page.getByTestId('feed-history').locator('tbody tr');
  /** A file given to the file input, as a person picking it would. */
  const pickFile = (name: string, text: string) =>
    page.getByLabel('Ficheiro', { exact: true }).setInputFiles({
      name,
      mimeType: 'text/csv',
      buffer: Buffer.from(text),
    });
  /** Sends the form's file and waits for the page to show the new feed (not the one shown before). */
  const send = async () => {
    const before = (await card().count()) ? await card().getAttribute('aria-labelledby') : null;
    await page.getByRole('button', { name: 'Enviar ficheiro' }).click();
    await expect.poll(() => card().getAttribute('aria-labelledby'), FEED_DEADLINE).not.toBe(before);
  };
  /** What a download brought: its name and its text. */
  const downloaded = async (click: () => Promise<void>) => {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
  };
  /** The upload's bandwidth: slow, so that its progress is seen moving, or as it comes. */
  const uploadThroughput = (bytesPerSecond: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });

  beforeAll(async () => {
    await buildWebOnce();
    mkdirSync(SHOTS, { recursive: true });
    // the API process applies the feeds itself, whatever database the tests run on
    app = await startTestApp({ env: { FEEDS_IN_PROCESS: 'true', RATE_LIMIT_PER_MINUTE: '600' } });
    account = await createTestAccount(app.services.db, app.clock);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const context = await browser.newContext({
      baseURL: app.baseUrl,
      viewport: { width: 1200, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');

    await page.goto('/dashboard/login');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Palavra-passe').fill('password-1234');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard$/);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('registers a seller (a blank name refused beside its field), its profile then shown', async () => {
    await page.getByRole('link', { name: 'Vendedores' }).click();
    await page.waitForURL(/\/dashboard\/sellers$/);
    await page.getByText('Ainda não há vendedores nesta conta.').waitFor();
    await page.getByLabel('Nome do vendedor').fill('   ');
    await page.getByRole('button', { name: 'Registar vendedor' }).click();
    const error = page.locator('[data-field="name"]');
    await expect.poll(() => error.textContent()).toMatch(/em branco/);
    await shot('seller-01-register-refused');

    await page.getByLabel('Nome do vendedor').fill('Peças do Norte');
    // the countries by their names, as the catalog has them
    await page.getByLabel('País').selectOption({ label: 'Espanha' });
    await page.getByLabel('Cidade (opcional)').fill('Braga');
    await page.getByRole('button', { name: 'Registar vendedor' }).click();
    const heading = page.getByRole('heading', { name: 'Perfil do vendedor: Peças do Norte' });
    await heading.waitFor();
    // the new profile takes the focus, and says what was done
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    await page.getByText('Vendedor Peças do Norte registado.').waitFor();
    expect(await page.getByTestId('seller-items').textContent()).toBe('0');
    expect(await page.getByText('Ainda não houve envios para este vendedor.').count()).toBe(1);
    const { sellers } = await apiGet<{ sellers: { name: string; country: string; city: string }[] }>(
      '/sellers',
    );
    expect(sellers).toEqual([
      expect.objectContaining({ name: 'Peças do Norte', country: 'ES', city: 'Braga' }),
    ]);
    await shot('seller-02-registered');
  });

  it('changes the profile', async () => {
    await profile().getByLabel('País').selectOption({ label: 'Portugal' });
    await profile().getByLabel('Cidade (opcional)').fill('Porto');
    await profile().getByRole('button', { name: 'Guardar' }).click();
    await profile().getByText('Guardado.').waitFor();
    const { sellers } = await apiGet<{ sellers: { country: string; city: string }[] }>('/sellers');
    expect(sellers).toEqual([expect.objectContaining({ country: 'PT', city: 'Porto' })]);
    // and after a reload, the seller kept in the address
    await page.reload();
    await expect.poll(() => profile().getByLabel('Cidade (opcional)').inputValue()).toBe('Porto');
    expect(page.url()).toMatch(/\?seller=\d+$/);
  });

  it('uploads a CSV with one bad line: its progress, then live to done with the counts, the history and the error report', async () => {
    await pickFile('stock.csv', STOCK_CSV);
    expect(await page.getByLabel('Parcial').isChecked()).toBe(true);
    // every value the upload's bar takes, as the page sets them
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector<HTMLProgressElement>('[data-testid="upload-progress"]');
        if (bar && seen.at(-1) !== bar.value / bar.max) seen.push(bar.value / bar.max);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await uploadThroughput(24 * 1024); // the file's ~60 KB in a few seconds
    await page.getByRole('button', { name: 'Enviar ficheiro' }).click();
    await page
      .getByTestId('upload-status')
      .filter({ hasText: /Ficheiro enviado/ })
      .waitFor({ timeout: 30_000 });
    await uploadThroughput(-1);
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    // it moved: from nothing, through values between, to the whole file
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(1);
    expect(seen.filter((share) => share > 0 && share < 1).length).toBeGreaterThan(0);

    await expect.poll(cardStatus, FEED_DEADLINE).toMatch(/^Concluído/);
    expect(await cardCount('lines')).toBe(String(GOOD_LINES + 1));
    expect(await cardCount('created')).toBe(String(GOOD_LINES));
    expect(await cardCount('rejected')).toBe('1');
    expect(await cardCount('removed')).toBe('0');
    // the first rejected lines: the line of the file, the field and why
    const firstErrors = page.getByTestId('first-errors').locator('tbody tr');
    expect(await firstErrors.count()).toBe(1);
    expect(await firstErrors.locator('td').allTextContents()).toEqual([
      '3',
      'BAD-1',
      'preco',
      'O preço não pode ser negativo: -3.',
    ]);
    // the profile counts the items now held
    await expect.poll(() => page.getByTestId('seller-items').textContent()).toBe(String(GOOD_LINES));
    // the history's row, with the same counts
    await expect.poll(() => historyRows().count()).toBe(1);
    const row = historyRows().first();
    expect(await row.locator('[data-status]').textContent()).toBe('Concluído');
    expect(await row.locator('[data-count="created"]').textContent()).toBe(String(GOOD_LINES));
    expect(await row.locator('[data-count="rejected"]').textContent()).toBe('1');
    expect(await row.textContent()).toContain('Parcial');
    expect(await rawCodes()).toEqual([]);
    await shot('seller-03-feed-done');

    // the error report, from the card and from the history: every rejected line, as CSV
    const feedId = await row.getAttribute('data-feed');
    const fromCard = await downloaded(() =>
      card().getByRole('button', { name: 'Descarregar o relatório de erros' }).click(),
    );
    expect(fromCard).toEqual({ name: `feed-${feedId}-erros.csv`, text: REPORT });
    const fromHistory = await downloaded(() =>
      row.getByRole('button', { name: `Relatório de erros do envio n.º ${feedId}` }).click(),
    );
    expect(fromHistory.text).toBe(REPORT);
    // and the template, public, a plain link
    const template = await downloaded(() =>
      page.getByRole('link', { name: 'Descarregar o modelo (CSV)' }).click(),
    );
    expect(template.name).toBe('modelo-feed-stock.csv');
    expect(template.text).toMatch(/^sku;referencia;titulo/);
  });

  it('a full feed of an empty file is refused, its reason shown, and nothing changes', async () => {
    await page.getByLabel('Completo').check();
    await pickFile('vazio.csv', '');
    await send();
    await expect.poll(cardStatus, FEED_DEADLINE).toBe('Recusado — Nada foi alterado.');
    expect(await page.getByTestId('feed-reason').textContent()).toBe(
      'Motivo: O ficheiro está vazio: falta a linha de cabeçalho.',
    );
    await shot('seller-04-feed-refused');

    // a header alone would remove every item: refused too, unless forced
    await pickFile('so-cabecalho.csv', 'sku,reference,title,condition,price\n');
    await send();
    await expect.poll(cardStatus, FEED_DEADLINE).toMatch(/^Recusado/);
    expect(await page.getByTestId('feed-reason').textContent()).toContain(
      `removeria os ${GOOD_LINES} artigos do vendedor`,
    );
    await expect.poll(() => historyRows().count()).toBe(3);
    expect(await historyRows().locator('[data-status]').allTextContents()).toEqual([
      'Recusado',
      'Recusado',
      'Concluído',
    ]);
    expect(await page.getByTestId('seller-items').textContent()).toBe(String(GOOD_LINES));
    // an older feed opened from the history, its card taking the focus
    const oldest = historyRows().last();
    await oldest.getByRole('button', { name: /^Ver/ }).click();
    await expect.poll(cardStatus).toMatch(/^Concluído/);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toMatch(/^Envio n\.º \d+ · Parcial$/);
  });

  it('the upload form by keyboard alone: a forced full dry run, then its error report', async () => {
    await page.reload();
    await profile().waitFor();
    const chooser = page.waitForEvent('filechooser');
    await tabTo(page.getByLabel('Ficheiro', { exact: true }));
    await page.keyboard.press('Space');
    await (
      await chooser
    ).setFiles({
      name: 'parcial.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'sku,reference,title,condition,price,quantity',
          'A-0000,REF-0000,Peça 0,novo,10.00,1',
          BAD_LINE,
        ].join('\n'),
      ),
    });
    // the modes are one stop of the Tab; the arrows move between them
    await tabTo(page.getByLabel('Parcial'));
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Completo').isChecked()).toBe(true);
    await tabTo(page.getByLabel('Simulação'));
    await page.keyboard.press('Space');
    await tabTo(page.getByLabel('Forçar'));
    await page.keyboard.press('Space');
    await tabTo(page.getByRole('button', { name: 'Enviar ficheiro' }));
    await page.keyboard.press('Enter');

    await expect
      .poll(cardStatus, FEED_DEADLINE)
      .toBe('Concluído — Simulação: nada foi alterado; os números dizem o que mudaria.');
    expect(await cardCount('unchanged')).toBe('1');
    expect(await cardCount('removed')).toBe(String(GOOD_LINES - 1));
    expect(await cardCount('rejected')).toBe('1');
    expect(await card().getByRole('heading').textContent()).toMatch(/Completo · simulação · forçado$/);
    // a dry run: nothing removed
    await expect.poll(() => page.getByTestId('seller-items').textContent()).toBe(String(GOOD_LINES));
    await shot('seller-05-keyboard-dry-run');

    const report = await downloaded(async () => {
      await tabTo(card().getByRole('button', { name: 'Descarregar o relatório de erros' }));
      await page.keyboard.press('Enter');
    });
    expect(report.text).toBe(REPORT);
  });

  it('a second seller has its own history; the first is picked again from the list', async () => {
    await page.getByText('Registar outro vendedor').click();
    const register = page.locator('details.register');
    await register.getByLabel('Nome do vendedor').fill('Recambios Sur');
    await register.getByRole('button', { name: 'Registar vendedor' }).click();
    await page.getByRole('heading', { name: 'Perfil do vendedor: Recambios Sur' }).waitFor();
    await page.getByText('Ainda não houve envios para este vendedor.').waitFor();
    expect(await page.getByTestId('seller-items').textContent()).toBe('0');
    await page.getByLabel('Vendedor', { exact: true }).selectOption({ label: 'Peças do Norte' });
    await page.getByRole('heading', { name: 'Perfil do vendedor: Peças do Norte' }).waitFor();
    await expect.poll(() => historyRows().count()).toBe(4);
  });

  it('switches to English and fits a phone width', async () => {
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { name: 'Upload history' }).waitFor();
    expect(await historyRows().first().locator('[data-status]').textContent()).toBe('Done');
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('seller-06-phone-en');
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.getByLabel('Language').selectOption('pt');
  });

  it('loaded the page without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });
});

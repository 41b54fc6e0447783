import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeReference } from '../../src/search/references.js';
import type { IdentifyPartOutput } from '../../src/tools/identify-part.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { FIXTURE_GROUPS, FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { ENGINES, startEngineApp, type EngineApp } from '../helpers/engine-app.js';
import type { BalanceAnswer } from '../../web/src/api-types.js';

/** A real 3×2 white PNG with no text (the tool reads it and finds none), drawn by sharp. */
const TINY_PNG = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#ffffff' } })
  .png()
  .toBuffer();
const tinyPng = () => TINY_PNG;
const png = `data:image/png;base64,${tinyPng().toString('base64')}`;

type Output = IdentifyPartOutput;

/** Brute force over the fixture: items whose own, associated or group references hold the normalized one. */
function stockedWith(reference: string): number {
  return itemsWith(reference).length;
}
function itemsWith(reference: string) {
  const wanted = normalizeReference(reference);
  return FIXTURE_ITEMS.filter((item) => {
    const group = FIXTURE_GROUPS.find((g) => g.id === item.group);
    const all = [
      item.reference,
      ...(item.refs ?? []).map((r) => r.reference),
      ...(group?.refs ?? []).map((r) => r.reference),
    ];
    return all.some((r) => normalizeReference(r) === wanted);
  });
}

/** The tool counts stocked references through the search engine: the same answers on both. */
describe.each(ENGINES)('tools on the %s engine', (engine) => {
  let app: EngineApp;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startEngineApp(engine, (db) => loadStockFixture(db));
    account = await createTestAccount(app.services.db, app.clock);
  });
  afterAll(() => app?.close());

  const api = () => app.api.withApiKey(account.apiKey);
  const execute = (input: Record<string, unknown>, slug = 'identificar-peca') =>
    api().post<{ slug: string; output: Output; code?: string; mensagem?: string }>('/tools/execute', {
      slug,
      input,
    });

  it('lists the tools with their input schema (either credential)', async () => {
    const res = await app.api
      .withBearer(account.bearer)
      .get<{ tools: { slug: string; input_schema: object }[] }>('/tools');
    expect(res.status).toBe(200);
    expect(res.body.tools.map((t) => t.slug)).toContain('identificar-peca');
    expect(res.body.tools[0]!.input_schema).toMatchObject({ required: ['image', 'description'] });
    expect((await app.api.get('/tools')).status).toBe(401);
  });

  it('finds the stocked references the description names, whatever their spelling, and charges nothing', async () => {
    const reference = FIXTURE_GROUPS[0]!.refs[0]!.reference; // '1K0 615 301 AA'
    const spelled = reference.toLowerCase().replace(/ /g, '-');
    const res = await execute({
      image: png,
      description: `Disco de travão usado, ref. ${spelled}, ano 2015, sem marcas`,
    });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe('identificar-peca');
    expect(res.body.output.imagem).toEqual({
      tipo: 'image/png',
      largura: 3,
      altura: 2,
      bytes: tinyPng().length,
      leitura: 'sem_texto',
      texto: [],
    });
    expect(res.body.output.referencias).toEqual([
      {
        referencia: spelled,
        normalizada: normalizeReference(reference),
        artigos_em_stock: stockedWith(reference),
        preco_minimo: Math.min(...itemsWith(reference).map((i) => i.price)),
        // the catalog part the items are (the fixture's part 3; the test database has no catalog names)
        peca: { id: 3, nome: null },
        origem: ['descricao'],
        confianca: 0.95,
        corrigida: false,
      },
    ]);
    expect(stockedWith(reference)).toBeGreaterThan(0);
    expect(res.body.output.pesquisa_sugerida).toEqual({ reference: spelled });
    const balance = await app.api.withBearer(account.bearer).get<BalanceAnswer>('/data/credits/balance');
    expect(balance.body.credits).toBe(50);
  });

  it('suggests a text search when no stocked reference is named', async () => {
    const res = await execute({ image: png, description: 'Farol esquerdo 2015 com suporte partido' });
    expect(res.body.output.referencias).toEqual([]);
    expect(res.body.output.pesquisa_sugerida).toEqual({ text: 'Farol esquerdo 2015 com suporte partido' });
  });

  it('suggests only searches /data/search accepts: whole words, none when there is no word', async () => {
    const long = `Para-choques ${'dianteiro '.repeat(30)}😀😀`;
    for (const description of [long, `a${'😀'.repeat(150)}`, 'Óptica (esq.) — 2015!']) {
      const suggested = (await execute({ image: png, description })).body.output.pesquisa_sugerida!;
      const text = suggested.text as string;
      expect(text.length).toBeLessThanOrEqual(200);
      expect(text).toMatch(/^[\p{L}\p{N}]+( [\p{L}\p{N}]+)*$/u);
      expect((await api().post('/data/search', suggested)).status, description).toBe(200);
    }
    const none = await execute({ image: png, description: '??? !!!' });
    expect(none.body.output.pesquisa_sugerida).toBeNull();
    expect(none.body.output.nota).toContain('palavras pesquisáveis');
  });

  it('runs for a Bearer token as for an API key; without a valid credential it is a 401', async () => {
    const request = {
      slug: 'identificar-peca',
      input: { image: png, description: `Disco ref. ${FIXTURE_GROUPS[0]!.refs[0]!.reference}` },
    };
    const withKey = await api().post<{ slug: string; output: Output }>('/tools/execute', request);
    expect(withKey.status).toBe(200);
    expect(withKey.body.output.referencias.length).toBeGreaterThan(0);
    const withBearer = await app.api
      .withBearer(account.bearer)
      .post<{ slug: string; output: Output }>('/tools/execute', request);
    expect(withBearer.status).toBe(200);
    expect(withBearer.body).toEqual(withKey.body);
    for (const client of [
      app.api,
      app.api.withApiKey('psk_desconhecida'),
      app.api.withBearer('pst_desconhecido'),
    ]) {
      const refused = await client.post<{ success: boolean; mensagem: string }>('/tools/execute', request);
      expect(refused.status).toBe(401);
      expect(refused.body.success).toBe(false);
      expect(refused.body.mensagem.length).toBeGreaterThan(0);
      expect(refused.body).not.toHaveProperty('output');
    }
  });

  it('refuses a bad image, a missing field and an unknown slug with clear errors', async () => {
    const notUri = await execute({ image: 'olá', description: 'x' });
    expect(notUri.status).toBe(400);
    expect(notUri.body.code).toBe('INVALID_IMAGE');
    expect(notUri.body.mensagem).toContain('corpo.input.image');

    const pdf = `data:image/png;base64,${Buffer.from('%PDF-1.4 not an image at all').toString('base64')}`;
    expect((await execute({ image: pdf, description: 'x' })).body.code).toBe('INVALID_IMAGE');
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`;
    expect((await execute({ image: svg, description: 'x' })).body.mensagem).toContain('image/svg+xml');

    const missing = await execute({ image: png });
    expect(missing.status).toBe(400);
    expect(missing.body.mensagem).toContain('corpo.input.description');

    const unknown = await execute({ image: png, description: 'x' }, 'adivinhar-preco');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('TOOL_NOT_FOUND');
    expect(unknown.body.mensagem).toContain('identificar-peca');
  });
});

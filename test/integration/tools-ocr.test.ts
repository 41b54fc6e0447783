import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineRefs } from '../../src/http/openapi-components.js';
import { normalizeReference } from '../../src/search/references.js';
import type { IdentifyPartOutput } from '../../src/tools/identify-part.js';
import { TextReader } from '../../src/tools/text-reader.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import {
  EXAMPLE_LABEL,
  EXAMPLE_LABEL_FILE,
  labelDataUri,
  renderLabel,
  type LabelSpec,
} from '../helpers/label-images.js';
import { FIXTURE_GROUPS, FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { SearchAnswer } from '../../web/src/api-types.js';

/**
 * identificar-peca reading labels, over HTTP. OCR is CPU work: a handful of images, one worker
 * shared by two apps over one database (a normal budget, and a 1 ms one), on the Postgres engine
 * (the look-ups go through the engine port: tools.test.ts runs them on both engines).
 */

type Output = IdentifyPartOutput;

/** Items whose own, associated or group references hold the reference, by brute force. */
function stocked(reference: string) {
  const wanted = normalizeReference(reference);
  return FIXTURE_ITEMS.filter((item) => {
    const group = FIXTURE_GROUPS.find((g) => g.id === item.group);
    const all = [item.reference, ...(item.refs ?? []), ...(group?.refs ?? [])].map((r) =>
      typeof r === 'string' ? r : r.reference,
    );
    return all.some((r) => normalizeReference(r) === wanted);
  });
}

/** A Brembo box label photographed at an angle, as a JPEG: its part number is stocked. */
const BOX: LabelSpec = {
  reference: '09.9145.11',
  brand: 'BREMBO',
  title: 'Brake disc',
  variant: 'angled',
  format: 'jpeg',
  seed: 7,
};

/** A PNG whose header declares `width` × `height` (nothing behind it decodes to that). */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('identificar-peca reads the part numbers in the image', () => {
  let reader: TextReader;
  let app: TestApp;
  let hurried: TestApp;
  let account: TestAccount;
  let box: string;

  beforeAll(async () => {
    reader = new TextReader({ workers: 1 });
    app = await startTestApp({ overrides: { textReader: reader }, env: { TOOL_OCR_TIMEOUT_MS: '30000' } });
    await loadStockFixture(app.services.db);
    account = await createTestAccount(app.services.db, app.clock);
    hurried = await startTestApp({
      database: app.database,
      overrides: { textReader: reader },
      env: { TOOL_OCR_TIMEOUT_MS: '1' },
    });
    box = await labelDataUri(BOX);
  });
  afterAll(async () => {
    await hurried?.close();
    await app?.close();
    await reader?.close();
  });

  const execute = (on: TestApp, input: Record<string, unknown>) =>
    on.api
      .withApiKey(account.apiKey)
      .post<{ output: Output; code?: string; mensagem?: string }>('/tools/execute', {
        slug: 'identificar-peca',
        input,
      });

  it('reads a stocked part number on a photographed label and puts it first, with its stock', async () => {
    expect(reader.started).toBe(0); // lazy: no worker before the first image
    const res = await execute(app, { image: box, description: 'Caixa do disco, foto da etiqueta' });
    expect(res.status).toBe(200);
    const { imagem, referencias, pesquisa_sugerida } = res.body.output;
    expect(imagem.leitura).toBe('lida');
    expect(imagem.texto.join(' ')).toContain('BREMBO');
    const items = stocked(BOX.reference);
    expect(items.length).toBeGreaterThan(1);
    expect(referencias[0]).toMatchObject({
      normalizada: normalizeReference(BOX.reference),
      artigos_em_stock: items.length,
      preco_minimo: Math.min(...items.map((i) => i.price)),
      peca: { id: 3 },
      origem: ['imagem'],
    });
    expect(referencias[0]!.confianca).toBeGreaterThan(0.5);
    // the label's EAN number and its count of pieces are read, but are not references
    expect(imagem.texto.join(' ')).toMatch(/EAN 40\d{11}/);
    expect(referencias.filter((r) => /EAN|PCS|40\d{11}/.test(r.referencia))).toEqual([]);
    expect(referencias.slice(1).every((r) => r.artigos_em_stock === 0)).toBe(true);
    expect(pesquisa_sugerida).toEqual({ reference: referencias[0]!.referencia });
    const search = await app.api
      .withApiKey(account.apiKey)
      .post<SearchAnswer>('/data/search', pesquisa_sugerida);
    expect(search.body.total).toBe(items.length);
  });

  it('reads the example label of docs/api.md: its part number, never its EAN number or its quantity', async () => {
    const photo = readFileSync(EXAMPLE_LABEL_FILE);
    const res = await execute(app, {
      image: `data:image/jpeg;base64,${photo.toString('base64')}`,
      description: 'disco de travão',
    });
    expect(res.status).toBe(200);
    const { imagem, referencias } = res.body.output;
    expect(imagem.leitura).toBe('lida');
    // the line a user once got back whole as a candidate reference
    expect(imagem.texto.join('\n')).toContain('EAN 4006633123456 QTY 1');
    // the only candidate is the part number (not stocked in the fixture: listed, as read in the image)
    expect(referencias.map((r) => [r.normalizada, r.origem, r.corrigida])).toEqual([
      [normalizeReference(EXAMPLE_LABEL.reference), ['imagem'], false],
    ]);
  });

  it('joins what the image and the description both give; a reference only in the description still counts', async () => {
    const both = await execute(app, { image: box, description: 'Disco Brembo 09 9145 11 e W 712/95' });
    const [first, second] = both.body.output.referencias;
    expect(first).toMatchObject({ normalizada: '09914511', origem: ['imagem', 'descricao'] });
    expect(second).toMatchObject({
      normalizada: 'W71295',
      origem: ['descricao'],
      artigos_em_stock: stocked('W 712/95').length,
    });
  });

  it('answers from the description when the image is not read in time, and the next image is read', async () => {
    const late = await execute(hurried, { image: box, description: 'Filtro de óleo W 712/95' });
    expect(late.status).toBe(200);
    expect(late.body.output.imagem.leitura).toBe('tempo_esgotado');
    expect(late.body.output.nota).toContain('não foi lida a tempo');
    expect(late.body.output.referencias.map((r) => [r.normalizada, r.origem])).toEqual([
      ['W71295', ['descricao']],
    ]);
    // the worker that overran was ended and replaced: the next request, with time, reads the label
    const next = await execute(app, { image: box, description: 'Caixa do disco' });
    expect(next.body.output.imagem.leitura).toBe('lida');
    expect(next.body.output.referencias[0]!.normalizada).toBe('09914511');
  });

  it('refuses bad images with 400 and a clear message, never a 500', async () => {
    const jpeg = await renderLabel(BOX);
    const cases: [string, string, string][] = [
      ['vazia', 'data:image/png;base64,', 'está vazio'],
      ['tipo errado', `data:image/bmp;base64,${Buffer.from('BM....').toString('base64')}`, 'image/bmp'],
      [
        'declarada PNG, é JPEG',
        `data:image/png;base64,${jpeg.toString('base64')}`,
        'declara image/png mas o conteúdo é image/jpeg',
      ],
      [
        'truncada',
        `data:image/jpeg;base64,${jpeg.subarray(0, Math.floor(jpeg.length / 3)).toString('base64')}`,
        'truncado ou corrompido',
      ],
      [
        'bomba de descompressão',
        `data:image/png;base64,${pngDeclaring(40_000, 40_000).toString('base64')}`,
        'dimensões excessivas',
      ],
      [
        'dimensões dentro do limite, dados em falta',
        `data:image/png;base64,${pngDeclaring(3000, 2000).toString('base64')}`,
        'truncado ou corrompido',
      ],
    ];
    for (const [what, image, message] of cases) {
      const res = await execute(app, { image, description: 'x' });
      expect(res.status, what).toBe(400);
      expect(res.body.code, what).toBe('INVALID_IMAGE');
      expect(res.body.mensagem, what).toContain(message);
    }
  });

  it('shows its input and output schemas in GET /tools and the same ones in the OpenAPI document', async () => {
    interface Listed {
      slug: string;
      input_schema: unknown;
      output_schema: { properties: Record<string, unknown> };
    }
    const tools = await app.api.withApiKey(account.apiKey).get<{ tools: Listed[] }>('/tools');
    const tool = tools.body.tools.find((t) => t.slug === 'identificar-peca')!;
    expect(JSON.stringify(tool.output_schema)).toContain('tempo_esgotado');
    interface Operation {
      requestBody: { content: { 'application/json': { schema: unknown } } };
      responses: { 200: { content: { 'application/json': { schema: unknown } } } };
    }
    const openapi = await app.api.get<{
      paths: Record<string, { post: Operation }>;
      components: { schemas: Record<string, unknown> };
    }>('/openapi.json');
    // the document names its schemas (components.schemas): read them written out
    const whole = (schema: unknown) => inlineRefs(schema, openapi.body.components.schemas);
    const execute = openapi.body.paths['/tools/execute']!.post;
    const documented = whole(execute.requestBody.content['application/json'].schema) as {
      properties: { slug: unknown; input: unknown };
    };
    expect(documented.properties.slug).toEqual({ type: 'string', enum: ['identificar-peca'] });
    expect(documented.properties.input).toEqual(tool.input_schema);
    expect(JSON.stringify(whole(execute.responses[200].content['application/json'].schema))).toContain(
      'corrigida',
    );
  });
});

/**
 * npx tsx scripts/example-label.ts
 *
 * Draws docs/examples/etiqueta.jpg, the label photo docs/api.md sends to identificar-peca, with
 * the label generator of the tool's tests and benchmark (test/helpers/label-images.ts,
 * EXAMPLE_LABEL). Run once; the file is committed, so the documented command runs as written from
 * a fresh clone. (Fonts come from the machine: another machine draws a slightly different file.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EXAMPLE_LABEL, EXAMPLE_LABEL_FILE, renderLabel } from '../test/helpers/label-images.js';

const image = await renderLabel(EXAMPLE_LABEL);
mkdirSync(dirname(EXAMPLE_LABEL_FILE), { recursive: true });
writeFileSync(EXAMPLE_LABEL_FILE, image);
process.stdout.write(`${EXAMPLE_LABEL_FILE}: ${image.length.toLocaleString('pt-PT')} bytes\n`);

import sharp, { type Sharp } from 'sharp';
import { Random } from '../../src/seeded-random.js';

/**
 * Photo-like part labels, drawn from SVG by sharp (fonts: DejaVu and Liberation, which .ci/run
 * installs when missing): a brand, the part number, a line of description and distractors (an EAN
 * barcode number, a quantity), on a label lying on a darker surface, then spoiled the way phone
 * photos are. Deterministic: the same seed gives the same images. Shared by the tool's tests and
 * npm run bench:tools.
 */

export type LabelVariant = 'clean' | 'rotated' | 'blurred' | 'noisy' | 'low_contrast' | 'angled';
export const LABEL_VARIANTS: LabelVariant[] = [
  'clean',
  'rotated',
  'blurred',
  'noisy',
  'low_contrast',
  'angled',
];

export interface LabelSpec {
  reference: string;
  brand: string;
  title: string;
  variant: LabelVariant;
  /** noisy labels are always JPEG */
  format: 'png' | 'jpeg';
  seed: number;
  /** the bottom line; by default an EAN number drawn from the seed */
  footer?: string;
}

/**
 * The label docs/api.md sends to identificar-peca (docs/examples/etiqueta.jpg, drawn by
 * scripts/example-label.ts): a Brembo disc whose reference the embedded demo stock holds (23
 * offers among the default 50,000 items), photographed at an angle, with the bottom line a user
 * once got back whole as a reference (an EAN number and a quantity).
 */
export const EXAMPLE_LABEL: LabelSpec = {
  reference: '09.7251.43',
  brand: 'BREMBO',
  title: 'Brake disc',
  variant: 'angled',
  format: 'jpeg',
  seed: 4,
  footer: 'EAN 4006633123456 QTY 1',
};
export const EXAMPLE_LABEL_FILE = 'docs/examples/etiqueta.jpg';

/** Part-number shapes of OEM and aftermarket makers, drawn from a seeded generator. */
const PATTERNS: { brand: string; title: string; make: (r: Random) => string }[] = [
  {
    brand: 'VW',
    title: 'Brake disc front',
    make: (r) => `${d(r, 1)}K${d(r, 1)} ${d(r, 3)} ${d(r, 3)} ${L(r, 2)}`,
  },
  { brand: 'BMW', title: 'Brake pad set', make: (r) => `34 ${d(r, 2)} ${d(r, 1)} ${d(r, 3)} ${d(r, 3)}` },
  { brand: 'BOSCH', title: 'Fuel filter', make: (r) => `0 ${d(r, 3)} ${d(r, 3)} ${d(r, 3)}` },
  { brand: 'MANN-FILTER', title: 'Oil filter', make: (r) => `W ${d(r, 3)}/${d(r, 2)}` },
  { brand: 'BREMBO', title: 'Brake disc', make: (r) => `09.${d(r, 4)}.${d(r, 2)}` },
  { brand: 'ATE', title: 'Brake disc', make: (r) => `24.${d(r, 4)}-${d(r, 4)}.1` },
  {
    brand: 'MERCEDES-BENZ',
    title: 'Water pump',
    make: (r) => `A ${d(r, 3)} ${d(r, 3)} ${d(r, 2)} ${d(r, 2)}`,
  },
  { brand: 'TOYOTA', title: 'Pad kit, disc brake', make: (r) => `${d(r, 5)}-${d(r, 5)}` },
  { brand: 'RENAULT', title: 'Timing belt kit', make: (r) => `77 ${d(r, 2)} ${d(r, 3)} ${d(r, 3)}` },
  { brand: 'PSA', title: 'Alternator', make: (r) => `96${d(r, 8)}` },
  { brand: 'TRW', title: 'Brake disc', make: (r) => `DF${d(r, 4)}${r.chance(0.5) ? 'S' : ''}` },
  { brand: 'VALEO', title: 'Clutch kit', make: (r) => `${d(r, 6)}` },
  { brand: 'FEBI BILSTEIN', title: 'Control arm', make: (r) => `${d(r, 5)}` },
  { brand: 'SKF', title: 'Wheel bearing kit', make: (r) => `VKBA ${d(r, 4)}` },
];

function d(r: Random, n: number): string {
  return Array.from({ length: n }, () => String(r.int(0, 9))).join('');
}
function L(r: Random, n: number): string {
  // letters a label prints in part-number suffixes (I and O are avoided by makers: 1 and 0)
  return Array.from({ length: n }, () => r.pick([...'ABCDEFGHJKLMNPRSTUVWXYZ'])).join('');
}

const FONTS = ['DejaVu Sans', 'DejaVu Sans Mono', 'Liberation Sans', 'Liberation Mono', 'DejaVu Serif'];

/** The n-th label of the set seeded with `seed`: pattern, reference and variant drawn from it. */
export function labelSpec(seed: number, index: number): LabelSpec {
  const r = Random.forRow(seed, 19, index);
  const pattern = PATTERNS[index % PATTERNS.length]!;
  const variant = LABEL_VARIANTS[Math.floor(index / PATTERNS.length + index) % LABEL_VARIANTS.length]!;
  return {
    reference: pattern.make(r),
    brand: pattern.brand,
    title: pattern.title,
    variant,
    format: r.chance(0.5) || variant === 'noisy' ? 'jpeg' : 'png',
    seed: r.int(1, 2 ** 31),
  };
}

/** `count` labels, every variant equally often, references distinct. */
export function labelSet(count: number, seed = 19): LabelSpec[] {
  const out: LabelSpec[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < count; i++) {
    const spec = labelSpec(seed, i);
    if (seen.has(spec.reference)) continue;
    seen.add(spec.reference);
    out.push(spec);
  }
  return out;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function labelSvg(spec: LabelSpec, r: Random): string {
  const low = spec.variant === 'low_contrast';
  const ink = low ? '#7a7a7a' : '#111111';
  const paper = low ? '#b8b4ab' : '#f6f3ea';
  const font = r.pick(FONTS);
  const size = r.int(40, 52);
  const footer = spec.footer ?? `EAN 40${d(r, 11)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="680" height="320">
  <rect x="2" y="2" width="676" height="316" rx="10" fill="${paper}" stroke="${ink}" stroke-width="3"/>
  <text x="28" y="62" font-family="DejaVu Sans" font-weight="bold" font-size="38" fill="${ink}">${escape(spec.brand)}</text>
  <text x="470" y="58" font-family="DejaVu Sans" font-size="22" fill="${ink}">${r.int(1, 4)} PCS</text>
  <text x="28" y="${92 + size}" font-family="${font}" font-weight="bold" font-size="${size}" fill="${ink}">${escape(spec.reference)}</text>
  <text x="28" y="215" font-family="Liberation Sans" font-size="26" fill="${ink}">${escape(spec.title)}</text>
  <text x="28" y="285" font-family="DejaVu Sans Mono" font-size="22" fill="${ink}">${escape(footer)}</text>
</svg>`;
}

/** Gaussian noise over a grayscale raw image (sensor noise in a dim photo). */
async function withNoise(image: Sharp, r: Random, sigma: number): Promise<Sharp> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + r.normal() * sigma));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/** The label as a photo: on a surface, spoiled as its variant says, encoded as PNG or JPEG. */
export async function renderLabel(spec: LabelSpec): Promise<Buffer> {
  const r = new Random(spec.seed);
  let label = sharp(Buffer.from(labelSvg(spec, r))).flatten({ background: '#ffffff' });
  const surface = { r: 70 + r.int(0, 40), g: 60 + r.int(0, 30), b: 50 + r.int(0, 30) };
  if (spec.variant === 'rotated') {
    const angle = (r.chance(0.5) ? -1 : 1) * r.int(3, 7);
    label = sharp(await label.rotate(angle, { background: surface }).png().toBuffer());
  } else if (spec.variant === 'angled') {
    // photographed from the side: sheared and squeezed (an affine stand-in for perspective)
    const shear = (r.chance(0.5) ? -1 : 1) * (0.08 + r.next() * 0.1);
    label = sharp(
      await label
        .affine(
          [
            [0.92, shear],
            [shear / 3, 0.85],
          ],
          { background: surface },
        )
        .png()
        .toBuffer(),
    );
  }
  const labelPng = await label.png().toBuffer();
  const { width = 680, height = 320 } = await sharp(labelPng).metadata();
  const margin = { x: r.int(40, 120), y: r.int(40, 100) };
  let photo = sharp({
    create: {
      width: width + margin.x * 2,
      height: height + margin.y * 2,
      channels: 3,
      background: surface,
    },
  }).composite([{ input: labelPng, left: margin.x, top: margin.y }]);
  photo = sharp(await photo.png().toBuffer());
  if (spec.variant === 'blurred') photo = photo.blur(1.2 + r.next() * 0.6);
  if (spec.variant === 'noisy') photo = await withNoise(sharp(await photo.png().toBuffer()), r, 28);
  // a noisy PNG does not compress (past the tool's 700 KB): a noisy photo is a JPEG anyway
  return spec.format === 'jpeg' ? photo.jpeg({ quality: 72 }).toBuffer() : photo.png().toBuffer();
}

/** A data URI of the rendered label, as the tool takes it. */
export async function labelDataUri(spec: LabelSpec): Promise<string> {
  return `data:image/${spec.format};base64,${(await renderLabel(spec)).toString('base64')}`;
}

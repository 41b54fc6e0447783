/**
 * The service's icon, /favicon.ico: a white magnifying glass on the dashboard's blue. It is drawn
 * here, once per process, so no binary file has to travel with the build (the image copies dist/
 * and the dashboard's build, not src/), and every page — the dashboard, /docs — gets it.
 */

const SIZE = 32;
/** Samples per pixel side: edges are smoothed over 4 × 4 points. */
const SAMPLES = 4;
const BLUE = [0x2f, 0x6d, 0xb5] as const; // --accent in web/src/styles.css
const WHITE = [0xff, 0xff, 0xff] as const;

/** Distance from (x, y) to the segment (ax, ay)–(bx, by). */
function toSegment(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/** What covers the point (x, y) of the 32 × 32 square: nothing, the blue tile, or the white glass. */
function paintAt(x: number, y: number): 'none' | 'tile' | 'glass' {
  // a rounded tile: corners of radius 6
  const r = 6;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  if (Math.hypot(x - cx, y - cy) > r) return 'none';
  const lens = Math.abs(Math.hypot(x - 13.5, y - 13.5) - 7);
  const handle = toSegment(x, y, 19, 19, 25.5, 25.5);
  return lens <= 1.6 || handle <= 2 ? 'glass' : 'tile';
}

/** The icon's pixels, bottom row first as BMP wants them, each blue, green, red, alpha. */
function pixels(): Buffer {
  const out = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      let tile = 0;
      let glass = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const paint = paintAt(col + (sx + 0.5) / SAMPLES, row + (sy + 0.5) / SAMPLES);
          if (paint === 'tile') tile++;
          else if (paint === 'glass') glass++;
        }
      }
      const covered = tile + glass;
      const at = ((SIZE - 1 - row) * SIZE + col) * 4;
      if (!covered) continue;
      const mix = (channel: number) =>
        Math.round((BLUE[channel]! * tile + WHITE[channel]! * glass) / covered);
      out[at] = mix(2);
      out[at + 1] = mix(1);
      out[at + 2] = mix(0);
      out[at + 3] = Math.round((covered / (SAMPLES * SAMPLES)) * 255);
    }
  }
  return out;
}

/** A one-image .ico file: its header, its directory entry, a 32-bit BMP and an empty AND mask. */
function icoFile(): Buffer {
  const image = pixels();
  const mask = Buffer.alloc((SIZE * SIZE) / 8); // 1 bit a pixel, rows of 4 bytes: all shown
  const bitmapInfo = Buffer.alloc(40);
  bitmapInfo.writeUInt32LE(40, 0); // header size
  bitmapInfo.writeInt32LE(SIZE, 4);
  bitmapInfo.writeInt32LE(SIZE * 2, 8); // the image and its mask, one above the other
  bitmapInfo.writeUInt16LE(1, 12); // planes
  bitmapInfo.writeUInt16LE(32, 14); // bits per pixel
  bitmapInfo.writeUInt32LE(image.length + mask.length, 20);
  const bitmap = Buffer.concat([bitmapInfo, image, mask]);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(bitmap.length, 14);
  header.writeUInt32LE(header.length, 18); // where the bitmap starts
  return Buffer.concat([header, bitmap]);
}

export const FAVICON_ICO: Buffer = icoFile();

import sharp from 'sharp';
import { MAX_IMAGE_PIXELS, invalid } from './data-uri-image.js';

/**
 * Text-recognition works best on dark text about 30–40 pixels high on a light, even background.
 * A label photographed whole puts its part number at a few percent of the image's height, so the
 * image is brought to a long side within these bounds: small images enlarged (at most 3×), large
 * ones reduced (recognition time grows with the pixels).
 */
const MIN_LONG_SIDE = 1_200;
const MAX_LONG_SIDE = 2_000;
const MAX_ENLARGEMENT = 3;

/** The prepared image: a grayscale PNG, and its size. */
export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
}

/** The long side the image is brought to (see MIN_LONG_SIDE). */
export function targetLongSide(width: number, height: number): number {
  const long = Math.max(width, height);
  if (long > MAX_LONG_SIDE) return MAX_LONG_SIDE;
  if (long < MIN_LONG_SIDE) return Math.min(MIN_LONG_SIDE, long * MAX_ENLARGEMENT);
  return long;
}

/**
 * Gets an image ready to be read: turned upright from its EXIF orientation, grayscale, scaled
 * (targetLongSide), cleared of speckle (median: sensor noise), contrast stretched (normalise: a grey-on-grey label becomes black on white)
 * and lightly sharpened (phone photos are often soft). The first frame only (GIF, animated WebP).
 * sharp decodes in libuv's thread pool, so the event loop is not held. A file that does not decode
 * (truncated, corrupt) is the client's: 400 INVALID_IMAGE. The pixel limit is also given to the
 * decoder (limitInputPixels), besides the check on the declared dimensions.
 */
export async function prepareForReading(data: Buffer): Promise<PreparedImage> {
  try {
    const image = sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated: false });
    const meta = await image.metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    // EXIF orientations 5–8 swap width and height; the long side is the same either way.
    const long = targetLongSide(meta.width, meta.height);
    const { data: png, info } = await image
      .rotate()
      .grayscale()
      .resize({ width: long, height: long, fit: 'inside', kernel: 'lanczos3' })
      .median(3)
      .normalise()
      .sharpen({ sigma: 1 })
      .png({ compressionLevel: 1 })
      .toBuffer({ resolveWithObject: true });
    return { png, width: info.width, height: info.height };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw invalid(`tem dimensões excessivas; máximo ${MAX_IMAGE_PIXELS / 1e6} megapíxeis`);
    }
    throw invalid('não pôde ser descodificada (ficheiro truncado ou corrompido)');
  }
}

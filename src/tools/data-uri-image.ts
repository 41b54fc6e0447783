import { imageSize } from 'image-size';
import { invalid as invalidRequest } from '../errors.js';

export const IMAGE_TYPES = ['png', 'jpeg', 'webp', 'gif'] as const;
/** Decoded size limit; the 1 MB JSON body limit already bounds the base64 text. */
export const MAX_IMAGE_BYTES = 700 * 1024;
/**
 * Pixels an image may declare (width × height), checked on the header before anything is decoded:
 * a few hundred KB of PNG can declare gigapixels (a decompression bomb). 24 MP covers phone photos.
 */
export const MAX_IMAGE_PIXELS = 24_000_000;
/** Longest side an image may declare, whatever its area (a 1 × 100,000 strip is no photo). */
export const MAX_IMAGE_SIDE = 10_000;

const DATA_URI = /^data:image\/([a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;

export interface ImageFacts {
  type: (typeof IMAGE_TYPES)[number];
  width: number;
  height: number;
  bytes: number;
}

/** The facts, and the decoded bytes (for reading). */
export interface DataUriImage extends ImageFacts {
  data: Buffer;
}

export const invalid = (why: string) => invalidRequest(`O campo corpo.input.image ${why}.`, 'INVALID_IMAGE');

/**
 * Reads a `data:<mime>;base64,<data>` image: the declared type must be one we accept and must
 * match what the bytes are (a renamed PDF is refused), within the size limits: bytes, and the
 * dimensions the header declares (nothing is decoded here).
 */
export function readDataUriImage(uri: string): DataUriImage {
  const match = DATA_URI.exec(uri);
  if (!match) throw invalid('deve ser um data URI de imagem: data:image/<tipo>;base64,<dados>');
  const declared = match[1] === 'jpg' ? 'jpeg' : match[1]!;
  if (!(IMAGE_TYPES as readonly string[]).includes(declared)) {
    throw invalid(
      `tem um tipo não suportado (image/${declared}); aceites: ${IMAGE_TYPES.map((t) => `image/${t}`).join(', ')}`,
    );
  }
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length === 0) throw invalid('está vazio');
  if (bytes.length > MAX_IMAGE_BYTES) throw invalid(`excede ${MAX_IMAGE_BYTES / 1024} KB`);
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    throw invalid('não contém uma imagem legível');
  }
  const actual = size.type === 'jpg' ? 'jpeg' : size.type;
  if (actual !== declared || !size.width || !size.height) {
    throw invalid(
      `declara image/${declared} mas o conteúdo é ${actual ? `image/${actual}` : 'desconhecido'}`,
    );
  }
  if (size.width * size.height > MAX_IMAGE_PIXELS || Math.max(size.width, size.height) > MAX_IMAGE_SIDE) {
    throw invalid(
      `tem dimensões excessivas (${size.width}×${size.height}); máximo ${MAX_IMAGE_PIXELS / 1e6} megapíxeis e ${MAX_IMAGE_SIDE} píxeis de lado`,
    );
  }
  return {
    type: declared as ImageFacts['type'],
    width: size.width,
    height: size.height,
    bytes: bytes.length,
    data: bytes,
  };
}

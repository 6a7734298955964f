// Which image format an upload is, decided by its content alone: the name and the declared type are the
// client's word, the magic bytes are not. Also the two animations libvips would quietly read as a still.
import { fileTypeFromBuffer } from 'file-type';
import { ImageRefusal } from '../../shared/media/image-refusals.js';
import { IMAGE_FORMATS, type ImageFormat } from '../../shared/media/image-profiles.js';

export type { ImageFormat };

// file-type's own "reasonable detection size": every accepted format is known by then.
const SNIFF_BYTES = 4100;

// APNG is a PNG to file-type's sniffing; whether it is animated is answered by isAnimatedPng.
const FORMAT_OF_EXTENSION: Record<string, ImageFormat> = {
  jpg: 'jpeg',
  png: 'png',
  apng: 'png',
  webp: 'webp',
  gif: 'gif',
  avif: 'avif',
};

const FORMAT_NAMES: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF', avif: 'AVIF' };

/**
 * The format the bytes are when it is one of `accepted`, or an `invalid_format` refusal (SVG, HTML, TIFF,
 * BMP, text, empty, or a format this kind of upload does not take).
 */
export async function sniffImageFormat(
  input: Buffer,
  accepted: readonly ImageFormat[] = IMAGE_FORMATS,
): Promise<ImageFormat> {
  const type = input.length > 0 ? await fileTypeFromBuffer(input.subarray(0, SNIFF_BYTES)) : undefined;
  const format = type ? FORMAT_OF_EXTENSION[type.ext] : undefined;
  if (!format || !accepted.includes(format)) {
    const names = accepted.map((each) => FORMAT_NAMES[each]);
    const listed = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
    throw new ImageRefusal('invalid_format', `The file is not a ${listed} image.`);
  }
  return format;
}

const PNG_SIGNATURE_BYTES = 8;

/**
 * An APNG announces itself with an `acTL` chunk before the first `IDAT`. libvips decodes only the default
 * image of such a file, so it would pass as a still unless we look. The whole file is walked (chunk
 * headers only), not just the sniffed bytes, because large text or ICC chunks may come first.
 */
export function isAnimatedPng(png: Buffer): boolean {
  let offset = PNG_SIGNATURE_BYTES;
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length; // length, type, data, CRC
  }
  return false;
}

/**
 * An AVIF image sequence carries the `avis` brand in its `ftyp` box (as major or compatible brand). libheif
 * would hand libvips the still primary item of it.
 */
export function isAvifSequence(avif: Buffer): boolean {
  if (avif.length < 16 || avif.toString('latin1', 4, 8) !== 'ftyp') return false;
  const boxEnd = Math.min(avif.readUInt32BE(0), avif.length);
  if (avif.toString('latin1', 8, 12) === 'avis') return true;
  // After the major brand come the minor version (4 bytes) and the compatible brands.
  for (let offset = 16; offset + 4 <= boxEnd; offset += 4) {
    if (avif.toString('latin1', offset, offset + 4) === 'avis') return true;
  }
  return false;
}

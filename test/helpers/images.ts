// Test images, all made in code (no binary fixtures) and deterministic: pixels come from a seeded generator,
// and what sharp cannot write (APNG, a 20000x20000 PNG in milliseconds) is put together by hand.
import zlib from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

const MiB = 1024 * 1024;

/** mulberry32: small, fast and good enough to make pixels that look random to an encoder. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shapesSvg(next: () => number, width: number, height: number): string {
  const channel = () => Math.floor(40 + next() * 180);
  const shapes: string[] = [];
  for (let i = 0; i < 60; i++) {
    const x = next() * width;
    const y = next() * height;
    const r = (0.01 + next() * 0.12) * width;
    const fill = `rgb(${channel()},${channel()},${channel()})`;
    shapes.push(
      i % 2
        ? `<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${r * (0.3 + next())}" fill="${fill}" fill-opacity="0.7"/>`
        : `<rect x="${x}" y="${y}" width="${r}" height="${r * (0.2 + next() * 2)}" fill="${fill}" transform="rotate(${next() * 90} ${x} ${y})"/>`,
    );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    '<defs><linearGradient id="sky" x1="0" y1="0" x2="0.3" y2="1">' +
    '<stop offset="0" stop-color="#7aa6d8"/><stop offset="1" stop-color="#6b5a3c"/></linearGradient></defs>' +
    `<rect width="100%" height="100%" fill="url(#sky)"/>${shapes.join('')}</svg>`
  );
}

/** Smooth noise with features about `cell` pixels wide: random values on a coarse grid, upscaled. */
async function octave(next: () => number, width: number, height: number, cell: number): Promise<Buffer> {
  const gridWidth = Math.ceil(width / cell) + 1;
  const gridHeight = Math.ceil(height / cell) + 1;
  const grid = Buffer.alloc(gridWidth * gridHeight * 3);
  for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(next() * 256);
  // Three channels even though one is used for brightness: sharp 0.35 upscales one-channel raw input
  // with visible horizontal banding.
  return sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
}

/**
 * Raw RGB that compresses like a photo: hard-edged shapes over a gradient (objects and sky), several
 * octaves of blurred noise (texture at every scale, mostly in brightness) and a little per-pixel grain.
 */
export async function photoPixels(width: number, height: number, seed = 1): Promise<Buffer> {
  const next = random(seed);
  const base = await sharp(Buffer.from(shapesSvg(next, width, height)))
    .removeAlpha()
    .blur(0.8)
    .raw()
    .toBuffer();
  const texture = new Float32Array(width * height * 3);
  for (const [cell, amplitude] of [
    [Math.max(width, height) / 12, 30],
    [Math.max(width, height) / 60, 18],
    [6, 12],
    [1.5, 8],
  ]) {
    const noise = await octave(next, width, height, cell);
    for (let i = 0; i < texture.length; i += 3) {
      const brightness = (noise[i] + noise[i + 1] + noise[i + 2]) / 3;
      for (let c = 0; c < 3; c++) {
        texture[i + c] += ((brightness - 128 + (noise[i + c] - brightness) * 0.3) / 74) * amplitude;
      }
    }
  }
  const pixels = new Uint8ClampedArray(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const grain = (next() - 0.5) * 8;
    for (let c = 0; c < 3; c++) pixels[i + c] = base[i + c] + texture[i + c] + grain;
  }
  return Buffer.from(pixels.buffer);
}

/**
 * The performance fixture: a 4000x3000 camera-like JPEG. The detail is made at half size and upscaled,
 * which is cheaper and no less photo-like after the pipeline shrinks it to 1600x1200.
 */
export async function photoJpeg(width = 4000, height = 3000, seed = 1): Promise<Buffer> {
  const half = await rawStill(Math.round(width / 2), Math.round(height / 2), seed);
  return half.resize(width, height, { fit: 'fill', kernel: 'cubic' }).jpeg({ quality: 90 }).toBuffer();
}

export type StillFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

const ENCODE_STILL: Record<StillFormat, (image: Sharp) => Sharp> = {
  jpeg: (image) => image.jpeg({ quality: 90 }),
  png: (image) => image.png(),
  webp: (image) => image.webp({ quality: 90 }),
  gif: (image) => image.gif({ effort: 1 }),
  avif: (image) => image.avif({ quality: 70, effort: 2 }),
};

/** A photo-like still in any accepted format. */
export async function stillImage(format: StillFormat, width = 640, height = 480, seed = 2): Promise<Buffer> {
  return ENCODE_STILL[format](await rawStill(width, height, seed)).toBuffer();
}

async function rawStill(width: number, height: number, seed: number): Promise<Sharp> {
  return sharp(await photoPixels(width, height, seed), { raw: { width, height, channels: 3 } });
}

/** Fully transparent except for a red square in the middle: the screen must see white around it. */
export async function transparentPng(side = 200): Promise<Buffer> {
  const margin = side / 4;
  const red = { r: 255, g: 0, b: 0, alpha: 1 };
  return sharp({ create: { width: side / 2, height: side / 2, channels: 4, background: red } })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

/**
 * Pure random noise: no encoder can make it small. At 1600x1600 it cannot fit the layout profile's 1 MiB
 * at the encoder's lowest quality.
 */
export async function noisePng(width = 1600, height = 1600, seed = 9): Promise<Buffer> {
  const next = random(seed);
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = next() * 256;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export interface AnimationOptions {
  frames: number;
  width?: number;
  height?: number;
  /** One delay for every frame, or one per frame (ms; GIF keeps hundredths of a second). */
  delay?: number | number[];
}

/**
 * Frames that all differ a lot: frame n shows the bits of n as a 4x4 grid of light and dark cells over a
 * colour that drifts. Encoders merge frames they find alike, which would change the frame count.
 */
function counterFrames(frames: number, width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * frames * 3);
  for (let frame = 0; frame < frames; frame++) {
    const hue = [(frame * 37) % 256, (frame * 91) % 256, (frame * 53) % 256];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = Math.floor((y * 4) / height) * 4 + Math.floor((x * 4) / width);
        const on = (frame >> bit) & 1;
        const i = ((frame * height + y) * width + x) * 3;
        for (let c = 0; c < 3; c++) pixels[i + c] = on ? 255 - (hue[c] >> 2) : hue[c] >> 2;
      }
    }
  }
  return pixels;
}

function animation(options: AnimationOptions): { frames: Sharp; delay: number[] } {
  const { frames, width = 64, height = 48, delay = 100 } = options;
  const pixels = counterFrames(frames, width, height);
  return {
    frames: sharp(pixels, { raw: { width, height: height * frames, channels: 3, pageHeight: height } }),
    delay: Array.isArray(delay) ? delay : Array<number>(frames).fill(delay),
  };
}

export async function animatedGif(options: AnimationOptions): Promise<Buffer> {
  const { frames, delay } = animation(options);
  return frames.gif({ delay, loop: 0, effort: 1, dither: 0 }).toBuffer();
}

export async function animatedWebp(options: AnimationOptions): Promise<Buffer> {
  const { frames, delay } = animation(options);
  return frames.webp({ delay, loop: 0, quality: 80 }).toBuffer();
}

/**
 * A GIF whose logical screen is width x height but whose frames each paint a single pixel: the header
 * claims width x height x frames pixels for a file of a few hundred bytes.
 */
export function sparseGif(width: number, height: number, frames: number): Buffer {
  const screen = Buffer.alloc(13);
  screen.write('GIF89a', 0, 'latin1');
  screen.writeUInt16LE(width, 6);
  screen.writeUInt16LE(height, 8);
  screen[10] = 0x80; // a global colour table of 2 entries
  const colours = Buffer.from([0, 0, 0, 255, 255, 255]);
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 0x03, 0x01, 0x00, 0x00, 0x00]);
  const frame = Buffer.from([
    ...[0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00], // graphic control: 10/100 s
    ...[0x2c, 0, 0, 0, 0, 0x01, 0x00, 0x01, 0x00, 0x00], // image descriptor: 1x1 at 0,0
    ...[0x02, 0x02, 0x44, 0x01, 0x00], // LZW: clear, pixel 0, end
  ]);
  return Buffer.concat([screen, colours, loop, ...Array<Buffer>(frames).fill(frame), Buffer.from([0x3b])]);
}

/** A three-frame GIF whose middle frame has a delay of 0, which browsers each read their own way. */
export async function gifWithZeroDelay(): Promise<Buffer> {
  return animatedGif({ frames: 3, delay: [100, 0, 100] });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  for (let offset = PNG_SIGNATURE.length; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    chunks.push({
      type: png.toString('latin1', offset + 4, offset + 8),
      data: png.subarray(offset + 8, offset + 8 + length),
    });
    offset += 12 + length;
  }
  return chunks;
}

/**
 * A two-frame APNG made from two sharp PNGs: acTL, then fcTL + IDAT for the first frame and fcTL + fdAT
 * for the second. libvips reads it as a plain red 40x30 PNG.
 */
export async function animatedPng(width = 40, height = 30): Promise<Buffer> {
  const framePng = async (background: string) =>
    pngChunks(
      await sharp({ create: { width, height, channels: 3, background } })
        .png()
        .toBuffer(),
    );
  const [first, second] = [await framePng('#ff0000'), await framePng('#0000ff')];
  const imageData = (chunks: { type: string; data: Buffer }[]) =>
    chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data);
  let sequence = 0;
  const frameControl = () => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(sequence++, 0);
    data.writeUInt32BE(width, 4);
    data.writeUInt32BE(height, 8);
    data.writeUInt16BE(1, 20); // delay numerator
    data.writeUInt16BE(10, 22); // delay denominator: 1/10 s
    return pngChunk('fcTL', data);
  };
  const animationControl = Buffer.alloc(8);
  animationControl.writeUInt32BE(2, 0); // frames
  animationControl.writeUInt32BE(0, 4); // plays: for ever
  const header = first.find((chunk) => chunk.type === 'IHDR')!;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header.data),
    pngChunk('acTL', animationControl),
    frameControl(),
    ...imageData(first).map((data) => pngChunk('IDAT', data)),
    frameControl(),
    ...imageData(second).map((data) => {
      const number = Buffer.alloc(4);
      number.writeUInt32BE(sequence++);
      return pngChunk('fdAT', Buffer.concat([number, data]));
    }),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A one-bit greyscale PNG of one flat colour, written directly: 20000x20000 takes under 100 ms and 50 KB,
 * where sharp's create + PNG encode needs 5 to 13 s for it.
 */
export function flatPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 + black pixels, each row
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

let hugePng: Buffer | null = null;

/** 400 million pixels in about 50 KB, made once per test run. */
export async function hugeFlatPng(): Promise<Buffer> {
  return (hugePng ??= flatPng(20000, 20000));
}

/** A still AVIF whose ftyp brand says image sequence (sharp cannot write a real one). */
export async function avifSequence(where: 'major' | 'compatible' = 'major'): Promise<Buffer> {
  const avif = Buffer.from(await stillImage('avif', 64, 48));
  const brands = avif.subarray(0, avif.readUInt32BE(0));
  if (where === 'major') {
    brands.write('avis', 8, 'latin1');
  } else {
    // Replace the first compatible brand that is not avif itself.
    for (let offset = 16; offset + 4 <= brands.length; offset += 4) {
      if (brands.toString('latin1', offset, offset + 4) !== 'avif') {
        brands.write('avis', offset, 'latin1');
        break;
      }
    }
  }
  return avif;
}

export async function truncatedJpeg(): Promise<Buffer> {
  const jpeg = await stillImage('jpeg', 320, 240);
  return jpeg.subarray(0, Math.floor(jpeg.length / 2));
}

export function svgDocument(): Buffer {
  return Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
  );
}

/** What a client might upload as "image.png": the name does not matter, the bytes do. */
export function htmlDocument(): Buffer {
  return Buffer.from('<!doctype html><html><head><title>image.png</title></head><body><img src=x></body></html>');
}

export async function tiffImage(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#123456' } })
    .tiff()
    .toBuffer();
}

/** A black 2x2 24-bit BMP (sharp cannot write BMP): file header, info header, two padded rows. */
export function bmpImage(): Buffer {
  const bmp = Buffer.alloc(54 + 16);
  bmp.write('BM', 0, 'latin1');
  bmp.writeUInt32LE(bmp.length, 2);
  bmp.writeUInt32LE(54, 10); // pixel data offset
  bmp.writeUInt32LE(40, 14); // info header size
  bmp.writeInt32LE(2, 18); // width
  bmp.writeInt32LE(2, 22); // height
  bmp.writeUInt16LE(1, 26); // planes
  bmp.writeUInt16LE(24, 28); // bits per pixel
  return bmp;
}

/** One byte over the 15 MiB upload limit; what the bytes are does not matter, the size is checked first. */
export async function oversizedJpeg(): Promise<Buffer> {
  const jpeg = await stillImage('jpeg', 64, 48);
  return Buffer.concat([jpeg, Buffer.alloc(15 * MiB + 1 - jpeg.length)]);
}

/** 200x100 as stored, EXIF orientation 6 (shown rotated 90° clockwise: 100x200), with a GPS position. */
export async function jpegWithGpsAndOrientation(): Promise<Buffer> {
  return (await rawStill(200, 100, 7))
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'Jogatina test camera' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '22/1 54/1 30/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '43/1 11/1 47/1',
      },
    })
    .jpeg()
    .toBuffer();
}

/** Whether a raw EXIF block (as sharp's metadata gives it) has a GPS IFD: tag 0x8825 in IFD0. */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.subarray(exif.toString('latin1', 0, 6) === 'Exif\0\0' ? 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const ifd0 = u32(4);
  const entries = u16(ifd0);
  for (let i = 0; i < entries; i++) {
    if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  }
  return false;
}

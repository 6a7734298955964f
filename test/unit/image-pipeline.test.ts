import { expect } from 'chai';
import sharp from 'sharp';
import { decodeFitted, encodeAnimation, encodeStill } from '../../workers/images/image-encode.js';
import { inspectImage } from '../../workers/images/image-inspect.js';
import {
  processImage,
  SCREEN_SIZE,
  screenedFrameIndexes,
  type FrameScreen,
} from '../../workers/images/image-pipeline.js';
import { IMAGE_PROFILES, type ImageProfileName } from '../../shared/media/image-profiles.js';
import { ImageRefusal, type ImageRefusalReason } from '../../shared/media/image-refusals.js';
import * as images from '../helpers/images.js';

const PROFILES: ImageProfileName[] = ['layout', 'avatar', 'still'];
const FORMATS: images.StillFormat[] = ['jpeg', 'png', 'webp', 'gif', 'avif'];
const FRAME_BYTES = SCREEN_SIZE * SCREEN_SIZE * 3;

const noScreen: FrameScreen = async () => undefined;

async function refusalOf(work: Promise<unknown>): Promise<ImageRefusal> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ImageRefusal) return error;
    throw error;
  }
  throw new Error('expected an ImageRefusal');
}

async function expectRefused(input: Buffer, profile: ImageProfileName, reason: ImageRefusalReason) {
  const refusal = await refusalOf(processImage(input, profile, noScreen));
  expect(refusal.reason, refusal.message).to.equal(reason);
  expect(refusal.name).to.equal('ImageRefusal');
  expect(refusal.message).to.match(/^[A-Z].*\.$/);
  return refusal;
}

describe('image pipeline', function () {
  // Generated once: the photo alone takes about a second to make.
  const made: Record<string, Buffer> = {};

  before(async function () {
    this.timeout(60_000);
    const makers: Record<string, () => Promise<Buffer> | Buffer> = {
      ...Object.fromEntries(FORMATS.map((format) => [format, () => images.stillImage(format, 600, 450)])),
      tinyPng: () => images.stillImage('png', 100, 80),
      wideFlat: () => images.flatPng(2000, 1000),
      tallFlat: () => images.flatPng(1000, 2000),
      photo: () => images.photoJpeg(),
      transparent: () => images.transparentPng(),
      animatedGif: () => images.animatedGif({ frames: 12 }),
      animatedWebp: () => images.animatedWebp({ frames: 12 }),
      wideGif: () => images.animatedGif({ frames: 5, width: 600, height: 300 }),
      threeFrames: () => images.animatedWebp({ frames: 3 }),
      gif300: () => images.animatedGif({ frames: 300, width: 16, height: 16, delay: 20 }),
      gif301: () => images.animatedGif({ frames: 301, width: 16, height: 16, delay: 20 }),
      tenSeconds: () => images.animatedGif({ frames: 10, delay: 1000 }),
      overTenSeconds: () => images.animatedGif({ frames: 6, delay: 1750 }),
      fifteenSeconds: () => images.animatedWebp({ frames: 20, delay: 750 }),
      overFifteenSeconds: () => images.animatedWebp({ frames: 10, delay: 1550 }),
      zeroDelay: () => images.gifWithZeroDelay(),
      apng: () => images.animatedPng(),
      avisMajor: () => images.avifSequence('major'),
      avisCompatible: () => images.avifSequence('compatible'),
      truncated: () => images.truncatedJpeg(),
      oriented: () => images.jpegWithGpsAndOrientation(),
      noise: () => images.noisePng(),
    };
    const entries = await Promise.all(
      Object.entries(makers).map(async ([name, make]) => [name, await make()] as const),
    );
    for (const [name, buffer] of entries) made[name] = buffer;
  });

  describe('stills become AVIF inside the profile box', () => {
    for (const profile of PROFILES) {
      for (const format of FORMATS) {
        it(`${format} for ${profile}`, async () => {
          const out = await processImage(made[format], profile, noScreen);
          const [width, height] = profile === 'avatar' ? [512, 384] : [600, 450];
          expect(out).to.include({ contentType: 'image/avif', extension: 'avif', width, height, animated: false });
          expect(out).to.include({ frames: 1, durationMs: null, bytes: out.data.length });
          const meta = await sharp(out.data).metadata();
          expect(meta).to.include({ format: 'heif', compression: 'av1', width, height });
          expect(out.bytes).to.be.at.most(IMAGE_PROFILES[profile].still.maxBytes);
        });
      }
    }

    for (const profile of PROFILES) {
      it(`never enlarges (${profile}: 100x80 stays 100x80)`, async () => {
        const out = await processImage(made.tinyPng, profile, noScreen);
        expect(out).to.include({ width: 100, height: 80 });
      });
    }

    const boxes: [string, ImageProfileName, number, number][] = [
      ['wideFlat', 'layout', 1600, 800],
      ['wideFlat', 'still', 1600, 800],
      ['wideFlat', 'avatar', 512, 256],
      ['tallFlat', 'layout', 800, 1600],
      ['tallFlat', 'avatar', 256, 512],
    ];
    for (const [name, profile, width, height] of boxes) {
      it(`fits ${name} inside the ${profile} box as ${width}x${height}`, async () => {
        const out = await processImage(made[name], profile, noScreen);
        expect(out).to.include({ width, height });
        expect(await sharp(out.data).metadata()).to.include({ width, height });
      });
    }

    it('turns a 4000x3000 photo into a 1600x1200 AVIF of 150 to 400 KB', async function () {
      this.timeout(10_000);
      const out = await processImage(made.photo, 'layout', noScreen);
      expect(out).to.include({ width: 1600, height: 1200, contentType: 'image/avif' });
      expect(out.bytes).to.be.within(150 * 1024, 400 * 1024);
    });
  });

  describe('animations become animated WebP', () => {
    for (const profile of ['layout', 'avatar'] as const) {
      for (const name of ['animatedGif', 'animatedWebp']) {
        it(`${name} for ${profile}`, async () => {
          const out = await processImage(made[name], profile, noScreen);
          expect(out).to.include({ contentType: 'image/webp', extension: 'webp', animated: true });
          expect(out).to.include({ width: 64, height: 48, frames: 12, durationMs: 1200, bytes: out.data.length });
          const meta = await sharp(out.data, { animated: true }).metadata();
          expect(meta).to.include({ format: 'webp', pages: 12, pageHeight: 48, width: 64, loop: 0 });
          expect(meta.delay).to.deep.equal(Array(12).fill(100));
        });
      }
    }

    it('fits every frame inside the box', async () => {
      const out = await processImage(made.wideGif, 'avatar', noScreen);
      expect(out).to.include({ width: 512, height: 256, frames: 5, animated: true });
    });

    it('refuses any animation for the still profile', async () => {
      await expectRefused(made.animatedGif, 'still', 'unsupported_animation');
      await expectRefused(made.animatedWebp, 'still', 'unsupported_animation');
    });
  });

  describe('refusals', () => {
    const cases: [string, () => Promise<Buffer> | Buffer, ImageProfileName, ImageRefusalReason][] = [
      ['an SVG', images.svgDocument, 'layout', 'invalid_format'],
      ['an HTML document named image.png', images.htmlDocument, 'avatar', 'invalid_format'],
      ['a TIFF', images.tiffImage, 'layout', 'invalid_format'],
      ['a BMP', images.bmpImage, 'layout', 'invalid_format'],
      ['text', () => Buffer.from('just some text, not an image'), 'layout', 'invalid_format'],
      ['an empty file', () => Buffer.alloc(0), 'still', 'invalid_format'],
      ['a file over 15 MiB', images.oversizedJpeg, 'layout', 'too_large'],
      ['a truncated JPEG', () => made.truncated, 'layout', 'invalid_image'],
      [
        'a PNG signature followed by junk',
        () => Buffer.concat([made.png.subarray(0, 40), Buffer.alloc(200, 7)]),
        'layout',
        'invalid_image',
      ],
      ['a JPEG with corrupt scan data', () => corruptJpeg(made.jpeg), 'avatar', 'invalid_image'],
      ['a 301-frame GIF', () => made.gif301, 'layout', 'too_many_frames'],
      ['a 301-frame GIF (avatar)', () => made.gif301, 'avatar', 'too_many_frames'],
      ['an 8000x5001 PNG', () => images.flatPng(8000, 5001), 'layout', 'too_many_pixels'],
      ['41 frames of 1000x1000', () => images.sparseGif(1000, 1000, 41), 'avatar', 'too_many_pixels'],
      ['a 10.5 s animation', () => made.overTenSeconds, 'layout', 'animation_too_long'],
      ['a 15.5 s animation', () => made.overFifteenSeconds, 'avatar', 'animation_too_long'],
      ['an animated PNG', () => made.apng, 'layout', 'unsupported_animation'],
      ['an animated PNG (avatar)', () => made.apng, 'avatar', 'unsupported_animation'],
      ['an AVIF sequence (avis major brand)', () => made.avisMajor, 'layout', 'unsupported_animation'],
      ['an AVIF sequence (avis compatible brand)', () => made.avisCompatible, 'avatar', 'unsupported_animation'],
      ['a GIF with a 0 ms frame', () => made.zeroDelay, 'layout', 'unsupported_animation'],
    ];
    for (const [what, input, profile, reason] of cases) {
      it(`${reason}: ${what} (${profile})`, async () => {
        await expectRefused(await input(), profile, reason);
      });
    }

    it('says how many frames there are and may be', async () => {
      const refusal = await expectRefused(made.gif301, 'layout', 'too_many_frames');
      expect(refusal.message).to.equal('The animation has 301 frames; at most 300 are allowed.');
    });

    it('refuses a 20000x20000 PNG from its header, without decoding it', async () => {
      const huge = await images.hugeFlatPng();
      expect(huge.length).to.be.below(500 * 1024);
      const started = performance.now();
      await expectRefused(huge, 'layout', 'too_many_pixels');
      expect(performance.now() - started).to.be.below(500);
    });

    it('refuses a still that stays over 1 MiB at the lowest quality as too_heavy', async function () {
      this.timeout(20_000);
      await expectRefused(made.noise, 'layout', 'too_heavy');
    });
  });

  describe('boundaries', () => {
    it('takes exactly 300 frames', async () => {
      const out = await processImage(made.gif300, 'layout', noScreen);
      expect(out).to.include({ frames: 300, animated: true, durationMs: 6000 });
      expect((await sharp(out.data).metadata()).pages).to.equal(300);
    });

    it('takes exactly 40 million pixels (8000x5000)', async () => {
      const out = await processImage(images.flatPng(8000, 5000), 'layout', noScreen);
      expect(out).to.include({ width: 1600, height: 1000 });
    });

    it('takes exactly 10 s for layout, and the 10.5 s animation for avatar', async () => {
      expect(await processImage(made.tenSeconds, 'layout', noScreen)).to.include({ durationMs: 10_000 });
      expect(await processImage(made.overTenSeconds, 'avatar', noScreen)).to.include({ durationMs: 10_500 });
    });

    it('takes exactly 15 s for avatar', async () => {
      expect(await processImage(made.fifteenSeconds, 'avatar', noScreen)).to.include({ durationMs: 15_000 });
      await expectRefused(made.fifteenSeconds, 'layout', 'animation_too_long');
    });
  });

  describe('orientation and metadata', () => {
    it('applies EXIF orientation 6: a 200x100 JPEG comes out 100x200', async () => {
      const input = await sharp(made.oriented).metadata();
      expect(input).to.include({ width: 200, height: 100, orientation: 6 });
      const out = await processImage(made.oriented, 'layout', noScreen);
      expect(out).to.include({ width: 100, height: 200 });
      const meta = await sharp(out.data).metadata();
      expect(meta).to.include({ width: 100, height: 200 });
      expect(meta.orientation).to.equal(undefined);
    });

    it('keeps no EXIF, GPS, XMP or ICC data', async () => {
      expect(images.exifHasGps((await sharp(made.oriented).metadata()).exif)).to.equal(true);
      const out = await processImage(made.oriented, 'avatar', noScreen);
      const meta = await sharp(out.data).metadata();
      expect(meta.exif).to.equal(undefined);
      expect(meta.xmp).to.equal(undefined);
      expect(meta.icc).to.equal(undefined);
      expect(meta.hasProfile).to.equal(false);
    });
  });

  describe('screening', () => {
    function recorder() {
      const calls: Uint8Array[][] = [];
      const screen: FrameScreen = async (frames) => {
        calls.push(frames);
      };
      return { calls, screen };
    }

    it('shows a still as one 224x224 RGB frame', async () => {
      const { calls, screen } = recorder();
      await processImage(made.jpeg, 'layout', screen);
      expect(calls).to.have.length(1);
      expect(calls[0]).to.have.length(1);
      expect(calls[0][0]).to.be.instanceOf(Uint8Array);
      expect(calls[0][0].length).to.equal(FRAME_BYTES);
    });

    it('shows an animation as 4 frames spread from the first to the last', async () => {
      const { calls, screen } = recorder();
      await processImage(made.animatedGif, 'layout', screen);
      expect(calls[0].map((frame) => frame.length)).to.deep.equal(Array(4).fill(FRAME_BYTES));
      expect(screenedFrameIndexes(12)).to.deep.equal([0, 4, 7, 11]);
      expect(screenedFrameIndexes(300)).to.deep.equal([0, 100, 199, 299]);
    });

    it('shows a short animation frame by frame', async () => {
      const { calls, screen } = recorder();
      await processImage(made.threeFrames, 'avatar', screen);
      expect(calls[0]).to.have.length(3);
      expect(screenedFrameIndexes(2)).to.deep.equal([0, 1]);
    });

    it('flattens transparency on white', async () => {
      const { calls, screen } = recorder();
      await processImage(made.transparent, 'avatar', screen);
      const [frame] = calls[0];
      const pixel = (x: number, y: number) =>
        Array.from(frame.subarray((y * SCREEN_SIZE + x) * 3, (y * SCREEN_SIZE + x) * 3 + 3));
      expect(pixel(2, 2)).to.deep.equal([255, 255, 255]);
      expect(pixel(112, 112)).to.deep.equal([255, 0, 0]);
    });

    it('stops with sensitive_image when the screen refuses', async () => {
      const refusal = await refusalOf(
        processImage(made.jpeg, 'layout', async () => {
          throw new ImageRefusal('sensitive_image', 'The image was refused by content screening.');
        }),
      );
      expect(refusal.reason).to.equal('sensitive_image');
    });

    it('lets any other error of the screen through untouched', async () => {
      const failure = new Error('the classifier fell over');
      let caught: unknown = null;
      try {
        await processImage(made.animatedGif, 'avatar', async () => {
          throw failure;
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).to.equal(failure);
    });

    it('is not called for an image refused from its header', async () => {
      const { calls, screen } = recorder();
      await refusalOf(processImage(made.apng, 'layout', screen));
      expect(calls).to.have.length(0);
    });
  });

  describe('quality stepping', () => {
    async function fitted(input: Buffer, profile: ImageProfileName) {
      const limits = IMAGE_PROFILES[profile];
      const format = input === made.animatedGif ? 'gif' : 'jpeg';
      return decodeFitted(input, await inspectImage(input, format, limits), limits);
    }

    it('steps quality down until the still is under its target, in few encodes', async () => {
      const image = await fitted(made.jpeg, 'layout');
      const first = await encodeStill(image, { targetBytes: 10 * 1024 * 1024, maxBytes: 10 * 1024 * 1024 });
      const target = Math.round(first.data.length / 2);
      const stepped = await encodeStill(image, { targetBytes: target, maxBytes: first.data.length });
      expect(stepped.quality).to.be.below(first.quality);
      expect(stepped.encodes).to.be.at.most(3);
      expect(stepped.data.length <= target || stepped.quality === 50).to.equal(true);
    });

    it('refuses as too_heavy when even the lowest quality is over the limit', async () => {
      const still = await fitted(made.jpeg, 'avatar');
      const stillRefusal = await refusalOf(encodeStill(still, { targetBytes: 1000, maxBytes: 2000 }));
      expect(stillRefusal.reason).to.equal('too_heavy');
      const animation = await fitted(made.animatedGif, 'avatar');
      const animationRefusal = await refusalOf(encodeAnimation(animation, { maxBytes: 1000 }));
      expect(animationRefusal.reason).to.equal('too_heavy');
    });
  });
});

/** The same JPEG with part of its entropy-coded data overwritten: decodable headers, broken scan. */
function corruptJpeg(jpeg: Buffer): Buffer {
  const corrupt = Buffer.from(jpeg);
  const start = Math.floor(corrupt.length / 2);
  for (let i = start; i < start + 400; i++) corrupt[i] = (i * 37) & 0xff;
  return corrupt;
}

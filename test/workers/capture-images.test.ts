// The image pipeline's capture profile (DECISIONS: Screenshots), in this process as an image thread runs it:
// fitted inside 3840x8640 and never enlarged, a WebP thumbnail fitted inside 640x1440, stills of JPEG, PNG,
// WebP and AVIF only, metadata stripped from both files, and screening that flags instead of refusing.
import { expect } from 'chai';
import sharp from 'sharp';
import { IMAGE_PROFILES } from '../../shared/media/image-profiles.js';
import { ImageRefusal } from '../../shared/media/image-refusals.js';
import { processImage, type FrameScreen } from '../../workers/images/image-pipeline.js';
import * as images from '../helpers/images.js';

const noScreen: FrameScreen = async () => undefined;
const explicit: FrameScreen = async () => {
  throw new ImageRefusal('sensitive_image', 'The image was refused by content screening.');
};

async function refusalOf(work: Promise<unknown>): Promise<ImageRefusal> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ImageRefusal) return error;
    throw error;
  }
  throw new Error('expected an ImageRefusal');
}

describe('image pipeline: captures', function () {
  this.timeout(60_000);

  it('keeps a capture up to 3840 px wide as WebP, with a WebP thumbnail up to 640 px wide', async () => {
    const out = await processImage(images.flatPng(4000, 1000), 'capture', noScreen);
    expect(out).to.include({ width: 3840, height: 960, contentType: 'image/webp', extension: 'webp', animated: false });
    expect(out.sensitive).to.equal(false);
    expect(await sharp(out.data).metadata()).to.include({ width: 3840, height: 960, format: 'webp' });
    expect(out.thumbnail).to.include({ width: 640, height: 160 });
    expect(out.thumbnail!.bytes).to.equal(out.thumbnail!.data.length);
    expect(await sharp(out.thumbnail!.data).metadata()).to.include({ width: 640, height: 160, format: 'webp' });
    expect(out.bytes).to.be.at.most(IMAGE_PROFILES.capture.still.maxBytes);
  });

  it('never enlarges, and fits tall captures and their thumbnails by height', async () => {
    const small = await processImage(await images.stillImage('png', 320, 200), 'capture', noScreen);
    expect(small).to.include({ width: 320, height: 200 });
    expect(small.thumbnail).to.include({ width: 320, height: 200 });
    const tall = await processImage(images.flatPng(1000, 10000), 'capture', noScreen);
    expect(tall).to.include({ width: 864, height: 8640 });
    expect(tall.thumbnail).to.include({ width: 144, height: 1440 });
  });

  for (const format of ['jpeg', 'png', 'webp', 'avif'] as const) {
    it(`takes a still in ${format}`, async () => {
      const out = await processImage(await images.stillImage(format, 300, 200), 'capture', noScreen);
      expect(out).to.include({ width: 300, height: 200, extension: 'webp' });
    });
  }

  it('refuses a GIF as invalid_format and an animation as unsupported_animation, naming what it takes', async () => {
    const gif = await refusalOf(processImage(await images.stillImage('gif', 64, 48), 'capture', noScreen));
    expect(gif.reason).to.equal('invalid_format');
    expect(gif.message).to.equal('The file is not a JPEG, PNG, WebP or AVIF image.');
    const webp = await refusalOf(processImage(await images.animatedWebp({ frames: 3 }), 'capture', noScreen));
    expect(webp.reason).to.equal('unsupported_animation');
    // Layout images still take GIFs, and say so.
    const svg = await refusalOf(processImage(images.svgDocument(), 'layout', noScreen));
    expect(svg.message).to.equal('The file is not a JPEG, PNG, WebP, GIF or AVIF image.');
  });

  it('strips EXIF and GPS from the image and its thumbnail, after applying the orientation', async () => {
    const input = await images.jpegWithGpsAndOrientation();
    expect(images.exifHasGps((await sharp(input).metadata()).exif)).to.equal(true);
    const out = await processImage(input, 'capture', noScreen);
    expect(out).to.include({ width: 100, height: 200 });
    for (const data of [out.data, out.thumbnail!.data]) {
      const meta = await sharp(data).metadata();
      expect(meta.exif).to.equal(undefined);
      expect(meta.xmp).to.equal(undefined);
      expect(meta.orientation).to.equal(undefined);
    }
  });

  it('flags what screening finds explicit instead of refusing it; other profiles still refuse', async () => {
    const input = await images.stillImage('jpeg', 300, 200);
    const flagged = await processImage(input, 'capture', explicit);
    expect(flagged.sensitive).to.equal(true);
    expect(flagged.thumbnail).to.not.equal(null);
    const refused = await refusalOf(processImage(input, 'layout', explicit));
    expect(refused.reason).to.equal('sensitive_image');
  });

  it('lets any other failure of the screen through', async () => {
    const broken: FrameScreen = async () => {
      throw new Error('model gone');
    };
    let caught: unknown = null;
    await processImage(await images.stillImage('jpeg', 64, 48), 'capture', broken).catch((error) => {
      caught = error;
    });
    expect((caught as Error).message).to.equal('model gone');
  });
});

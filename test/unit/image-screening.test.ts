// Screening with the real bundled classifier on the WASM backend: ordinary pictures pass, an image the
// model scores as explicit is refused, and a model that cannot load makes screening unavailable.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp, { type Sharp } from 'sharp';
import { ImageRefusal } from '../../shared/media/image-refusals.js';
import {
  scoreFrame,
  screenFrames,
  screeningModel,
  ScreeningUnavailableError,
  sensitiveScore,
} from '../../workers/images/image-screening.js';

const FLAGGED = readFileSync(new URL('../fixtures/screening-flagged.png', import.meta.url));
const options = { model: 'MobileNetV2', threshold: 0.7 };

async function frameOf(image: Sharp): Promise<Uint8Array> {
  return image.resize(224, 224, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

describe('image screening', function () {
  this.timeout(60000);

  it('loads the bundled model once and scores every class', async () => {
    const first = screeningModel('MobileNetV2');
    expect(screeningModel('MobileNetV2')).to.equal(first);
    const scores = await scoreFrame(
      await first,
      await frameOf(sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } })),
    );
    expect(Object.keys(scores).sort()).to.deep.equal(['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy']);
    const total = Object.values(scores).reduce((a, b) => a + b, 0);
    expect(total).to.be.closeTo(1, 0.01);
  });

  it('lets ordinary pictures through', async () => {
    const screen = screenFrames(options);
    const gradient = sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><defs><linearGradient id="g"><stop offset="0" stop-color="#135"/><stop offset="1" stop-color="#fc6"/></linearGradient></defs><rect width="320" height="240" fill="url(#g)"/><circle cx="160" cy="120" r="60" fill="#2a8"/></svg>`,
      ),
    );
    await screen([
      await frameOf(gradient),
      await frameOf(sharp({ create: { width: 64, height: 64, channels: 3, background: '#ffffff' } })),
    ]);
  });

  it('refuses an image the model scores as explicit, as sensitive_image', async () => {
    const frame = await frameOf(sharp(FLAGGED));
    const scores = await scoreFrame(await screeningModel('MobileNetV2'), frame);
    expect(sensitiveScore(scores)).to.be.greaterThan(0.9);
    const neutral = await frameOf(sharp({ create: { width: 224, height: 224, channels: 3, background: '#808080' } }));
    try {
      // The flagged frame is the second: every sampled frame of an animation is screened.
      await screenFrames(options)([neutral, frame]);
      expect.fail('the frame should be refused');
    } catch (error) {
      expect(error).to.be.instanceOf(ImageRefusal);
      expect((error as ImageRefusal).reason).to.equal('sensitive_image');
    }
  });

  it('answers ScreeningUnavailableError when the model folder cannot be read, and tries again next time', async () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'jogatina-model-')), 'nothing-here');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        await screenFrames({ model: missing, threshold: 0.7 })([new Uint8Array(224 * 224 * 3)]);
        expect.fail('screening should be unavailable');
      } catch (error) {
        expect(error).to.be.instanceOf(ScreeningUnavailableError);
      }
    }
    // The bundled model still works after a failed load of another.
    await screenFrames(options)([new Uint8Array(224 * 224 * 3).fill(128)]);
  });

  it('refuses frames of the wrong size (a pipeline bug, not a verdict)', async () => {
    try {
      await scoreFrame(await screeningModel('MobileNetV2'), new Uint8Array(10));
      expect.fail('should refuse');
    } catch (error) {
      expect((error as Error).message).to.match(/224x224/);
    }
  });
});

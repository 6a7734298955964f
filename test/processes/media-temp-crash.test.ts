// A worker process killed while it writes an upload's output (issue: nothing lost, nothing doubled): the
// local storage writes `layout/.<uuid>.avif.<hex>.tmp` and renames it over the key, so a kill in between
// leaves that temporary file, which no row and no cleanup entry names (its name is random). `op media
// cleanup` (the daily media.cleanup) sweeps such files once untouched for an hour, and never a younger one,
// which may belong to a write still running.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { sendJob } from '../../shared/platform/jobs/queue.js';
import { LocalMediaStorage } from '../../shared/platform/storage/local-media-storage.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { photoJpeg } from '../helpers/images.js';
import { processEnv, runEntry, runOp, type RunningProcess } from '../helpers/processes.js';

/** The local storage's temporary file for a layout image (writeAtomically). */
const TEMPORARY = /^\.[0-9a-f-]{36}\.avif\.[0-9a-f]{12}\.tmp$/;

describe('a worker killed while it writes an image', function () {
  this.timeout(180_000);
  useCleanDatabase();
  let worker: RunningProcess | null = null;
  after(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  });

  it('leaves a temporary file that op media cleanup removes once it is an hour stale, and not before', async () => {
    const mediaDir = mkdtempSync(path.join(tmpdir(), 'jogatina-media-crash-'));
    const layoutDir = path.join(mediaDir, 'layout');
    mkdirSync(layoutDir);
    const media = new LocalMediaStorage(mediaDir, 'http://localhost:3000/media');
    const { account } = await buildAccount();
    const photo = await photoJpeg(1600, 1200);
    worker = runEntry('workers/index.ts', processEnv({ IMAGE_THREADS: '1', MEDIA_DIR: mediaDir }));
    await worker.waitForLine(/"msg":"worker ready"/, 60_000);
    const child = worker.child;

    // The worker is stopped (SIGSTOP) the moment its temporary file appears, then killed. Between the
    // file's creation and its rename the worker only writes and flushes it, which usually outlasts this
    // process's wake-up; when the rename won the race, the worker goes on and the next upload tries again.
    let temporary: string | null = null;
    for (let round = 0; round < 6 && temporary === null; round += 1) {
      const id = crypto.randomUUID();
      await media.put(`staging/${id}`, photo, 'application/octet-stream');
      const seen = firstTemporary(layoutDir, id, () => child.kill('SIGSTOP'));
      await db().transaction(async (trx) => {
        await trx('image_uploads').insert({
          id,
          account_id: account.id,
          purpose: 'layout',
          staging_key: `staging/${id}`,
        });
        await sendJob(trx, 'image.process', { upload_id: id });
      });
      const name = await seen;
      if (name && existsSync(path.join(layoutDir, name))) {
        temporary = path.join(layoutDir, name);
      } else {
        child.kill('SIGCONT');
        await waitForRow(id);
      }
    }
    child.kill('SIGKILL');
    await worker.exited;
    expect(temporary, 'the worker was never caught with its temporary file').to.not.equal(null);
    const file = temporary!;
    // The key it was writing was queued for cleanup before the write; the temporary file is named nowhere.
    const key = `layout/${path.basename(file).slice(1, 42)}`;
    expect(await db()('orphaned_media').where({ storage_key: key })).to.have.length(1);
    expect(await db()('images').where({ storage_key: key })).to.have.length(0);

    const env = { MEDIA_DIR: mediaDir };
    // Fresh, it may be a live write's: the sweep leaves it.
    const early = await runOp(['media', 'cleanup'], env);
    expect(early.code, early.output).to.equal(0);
    expect(early.output).to.include('0 stale temporary file(s)');
    expect(existsSync(file)).to.equal(true);

    // An hour and more without a write: no live write owns it. Time is moved on the file, not waited out.
    const stale = new Date(Date.now() - 61 * 60 * 1000);
    utimesSync(file, stale, stale);
    const late = await runOp(['media', 'cleanup'], env);
    expect(late.code, late.output).to.equal(0);
    expect(late.output).to.include('1 stale temporary file(s)');
    expect(existsSync(file)).to.equal(false);
    expect(readdirSync(layoutDir).filter((name) => name.startsWith('.'))).to.deep.equal([]);
  });
});

/**
 * Answers the name of the first temporary file that appears in `folder`, calling `stop` at once from the
 * watcher's own callback; or null when upload `id` is recorded with none seen (the write outran the watch).
 */
function firstTemporary(folder: string, id: string, stop: () => void): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const end = (name: string | null, error?: Error) => {
      watcher.close();
      clearInterval(recorded);
      clearTimeout(late);
      if (error) reject(error);
      else resolve(name);
    };
    const watcher = watch(folder, (_event, name) => {
      if (!name || !TEMPORARY.test(name)) return;
      stop();
      end(name);
    });
    const recorded = setInterval(() => {
      void db()('images')
        .where({ id })
        .first('id')
        .then((row) => row && end(null));
    }, 100);
    const late = setTimeout(
      () => end(null, new Error(`upload ${id} neither wrote a temporary file nor was recorded`)),
      90_000,
    );
  });
}

async function waitForRow(id: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await db()('images').where({ id }).first('id'))) {
    if (Date.now() > deadline) throw new Error(`upload ${id} was never recorded`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// `npm run op -- <command>` as a process: help, refusal of an unknown command, and `media cleanup`
// against the run's database, removing what the daily job removes.
import { mkdtempSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { runOp } from '../helpers/processes.js';

/** Runs `npm run op -- ...args` to its end; answers the exit code and everything it printed. */

describe('npm run op', function () {
  this.timeout(60000);
  useCleanDatabase();

  it('lists its commands with --help and exits 0', async () => {
    const result = await runOp(['--help']);
    expect(result.code).to.equal(0);
    expect(result.output).to.include('media cleanup');
  });

  it('refuses an unknown command with a non-zero exit', async () => {
    const result = await runOp(['media', 'polish']);
    expect(result.code).to.equal(1);
    expect(result.output).to.include('Unknown command "media polish"');
  });

  it('runs media cleanup now: an image unnamed for 8 days goes, with its file', async () => {
    const mediaDir = mkdtempSync(path.join(tmpdir(), 'jogatina-op-media-'));
    mkdirSync(path.join(mediaDir, 'layout'));
    const key = 'layout/00000000-0000-4000-8000-0000000000aa.avif';
    writeFileSync(path.join(mediaDir, key), 'x');
    const { account } = await buildAccount();
    await db()('images').insert({
      account_id: account.id,
      purpose: 'layout',
      storage_key: key,
      content_type: 'image/avif',
      width: 1,
      height: 1,
      bytes: 1,
      animated: false,
      created_at: db().raw("now() - interval '8 days'"),
    });
    const result = await runOp(['media', 'cleanup'], { MEDIA_DIR: mediaDir });
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.include('removed 1 unnamed layout image(s)');
    expect(await db()('images').where({ account_id: account.id })).to.have.length(0);
    expect(existsSync(path.join(mediaDir, key))).to.equal(false);
  });
});

// `npm run op -- <command>` as a process: help, refusal of an unknown command, `media cleanup` against
// the run's database (removing what the daily job removes, once, however many runs overlap), and demo
// data that a repeat does not add twice.
import { mkdtempSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
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

  it('runs media cleanup now: images unnamed for 8 days go with their files, once across overlapping runs', async () => {
    const mediaDir = mkdtempSync(path.join(tmpdir(), 'jogatina-op-media-'));
    mkdirSync(path.join(mediaDir, 'layout'));
    const keys = ['aa', 'ab', 'ac'].map((n) => `layout/00000000-0000-4000-8000-0000000000${n}.avif`);
    const { account } = await buildAccount();
    for (const key of keys) {
      writeFileSync(path.join(mediaDir, key), 'x');
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
    }
    const env = { MEDIA_DIR: mediaDir };
    const runs = await Promise.all([runOp(['media', 'cleanup'], env), runOp(['media', 'cleanup'], env)]);
    let removed = 0;
    for (const run of runs) {
      expect(run.code, run.output).to.equal(0);
      removed += Number(/removed (\d+) unnamed layout image\(s\)/.exec(run.output)![1]);
    }
    expect(removed).to.equal(3);
    expect(await db()('images').where({ account_id: account.id })).to.have.length(0);
    for (const key of keys) expect(existsSync(path.join(mediaDir, key)), key).to.equal(false);

    const again = await runOp(['media', 'cleanup'], env);
    expect(again.code, again.output).to.equal(0);
    expect(again.output).to.include('removed 0 unnamed layout image(s), 0 abandoned upload(s), 0 orphaned file(s)');
  });

  it('adds demo people and the demo game; a repeat adds nothing, and bad counts exit non-zero', async () => {
    await db()('games').insert(
      Array.from({ length: 30 }, (_, i) => ({ slug: `demo-op-${i}`, name: `Demo Op ${i}`, popularity: i })),
    );
    const first = await runOp(['demo', 'seed', '4', '3']);
    expect(first.code, first.output).to.equal(0);
    expect(first.output).to.match(/demo people: 4 account\(s\), [1-9]\d* library entries/);
    expect(first.output).to.include('demo Arcade game: demo-rocks');
    const people = await db()('accounts').count<{ n: number }[]>('* as n');
    const entries = await db()('library_entries').count<{ n: number }[]>('* as n');

    const again = await runOp(['demo', 'seed', '4', '3']);
    expect(again.code, again.output).to.equal(0);
    expect(again.output).to.include('0 library entries, 0 follows, 0 activity items');
    expect(again.output).not.to.include('demo Arcade game');
    expect(await db()('accounts').count<{ n: number }[]>('* as n')).to.deep.equal(people);
    expect(await db()('library_entries').count<{ n: number }[]>('* as n')).to.deep.equal(entries);

    for (const bad of [['0'], ['4', '1001'], ['four'], ['4', '3', '2']]) {
      const refused = await runOp(['demo', 'seed', ...bad]);
      expect(refused.code, bad.join(' ')).to.equal(1);
      expect(refused.output).to.include('give whole numbers');
    }
  });
});

// `npm run op -- arcade ...` as processes: each setting lands in the database, and bad input exits non-zero.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { arcadeSettings } from '../../shared/arcade/settings.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { runOp } from '../helpers/processes.js';

describe('npm run op -- arcade', function () {
  this.timeout(60000);
  useCleanDatabase();

  it('opens publishing, sets the app limit, publishes terms, invites and blocks', async () => {
    const { account } = await buildAccount({ username: 'invited_dev' });
    const terms = path.join(tmpdir(), `terms-${process.pid}.txt`);
    await writeFile(terms, 'Version two of the terms.\n');
    for (const args of [
      ['arcade', 'open-publishing', 'on'],
      ['arcade', 'app-limit', '5'],
      ['arcade', 'terms', '2026-12-01', terms],
      ['arcade', 'allow', 'invited_dev'],
      ['arcade', 'block-network', '203.0.113.0/24'],
      ['arcade', 'block-registrar', 'Shady Names Inc'],
    ]) {
      const result = await runOp(args);
      expect(result.code, `${args.join(' ')}: ${result.output}`).to.equal(0);
    }
    expect(await arcadeSettings(db())).to.deep.include({
      open_publishing: true,
      app_limit: 5,
      terms_version: '2026-12-01',
    });
    expect(await db()('arcade_allowlist').where({ account_id: account.id }).first()).to.not.equal(undefined);
    expect((await db()('arcade_blocked_networks').first()).network).to.equal('203.0.113.0/24');
    expect((await db()('arcade_blocked_registrars').first()).name).to.equal('shady names inc');
    expect((await runOp(['arcade', 'disallow', 'invited_dev'])).code).to.equal(0);
    expect(await db()('arcade_allowlist').where({ account_id: account.id }).first()).to.equal(undefined);
  });

  it('exits non-zero on bad input, and never changes the text of a published version', async () => {
    const terms = path.join(tmpdir(), `terms-b-${process.pid}.txt`);
    await writeFile(terms, 'Another text.\n');
    const current = (await arcadeSettings(db())).terms_version;
    for (const args of [
      ['arcade', 'open-publishing', 'maybe'],
      ['arcade', 'app-limit', '-1'],
      ['arcade', 'allow', 'nobody_here'],
      ['arcade', 'block-network', 'not-a-cidr'],
      ['arcade', 'terms', current, terms],
      ['arcade', 'terms', 'v9'],
    ]) {
      const result = await runOp(args);
      expect(result.code, args.join(' ')).to.not.equal(0);
    }
  });
});

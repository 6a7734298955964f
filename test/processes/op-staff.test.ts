// `npm run op -- staff <username> <role>` as a process: it sets the role (moderation routes then open),
// records the change, and exits non-zero on a missing account or an unknown role.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { buildAccount } from '../helpers/factories.js';
import { runOp } from '../helpers/processes.js';

describe('npm run op -- staff', function () {
  this.timeout(60000);
  useCleanDatabase();

  it('is listed in --help', async () => {
    const result = await runOp(['--help']);
    expect(result.code).to.equal(0);
    expect(result.output).to.match(/staff USERNAME ROLE +give an account a role \(member, moderator, admin\)/);
  });

  it('makes an account a moderator by username and back, recording each change', async () => {
    const { account } = await buildAccount({ username: 'future_mod' });
    const made = await runOp(['staff', 'future_mod', 'moderator']);
    expect(made.code, made.output).to.equal(0);
    expect(made.output).to.include('future_mod: member -> moderator');
    expect((await db()('accounts').where({ id: account.id }).first()).role).to.equal('moderator');

    const back = await runOp(['staff', 'future_mod', 'member']);
    expect(back.code, back.output).to.equal(0);
    expect((await db()('accounts').where({ id: account.id }).first()).role).to.equal('member');
    const actions = await db()('moderator_actions').where({ subject_id: account.id }).orderBy('created_at');
    expect(actions.map((row) => [row.action, row.moderator_id, row.details.role])).to.deep.equal([
      ['set_role', null, 'moderator'],
      ['set_role', null, 'member'],
    ]);
  });

  it('exits non-zero for an unknown username, an unknown role or missing arguments', async () => {
    await buildAccount({ username: 'plain_member' });
    for (const args of [
      ['staff', 'nobody_here', 'admin'],
      ['staff', 'plain_member', 'owner'],
      ['staff', 'plain_member'],
      ['staff'],
    ]) {
      const result = await runOp(args);
      expect(result.code, args.join(' ')).to.equal(1);
      expect(result.output).to.match(/^Failed: /m);
    }
    expect((await db()('accounts').where({ username: 'plain_member' }).first()).role).to.equal('member');
  });
});

// POST /reports (spec: Reports): who may report, every field rule, the one-open rule, and the 404 for
// targets that are missing or that the reporter cannot see. What each kind finds is in
// reports-targets.test.ts.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';
import { appWithKey } from '../helpers/factories.js';
import { staffMember } from '../helpers/moderation.js';
import { block, namedPerson, review, type Visibility } from '../helpers/people.js';
import { useTestApp } from '../helpers/test-app.js';

describe('POST /reports', () => {
  useCleanDatabase();
  const app = useTestApp();

  const person = (username: string, visibility?: Visibility) => namedPerson(app.client, username, visibility);
  const reportsBy = (reporterId: string) => db()('reports').where({ reporter_id: reporterId }).orderBy('created_at');
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  it('takes a profile report from a session and says only that it arrived', async () => {
    const reporter = await person('rep_session');
    const target = await person('rep_target_one');
    await db()('profiles').insert({ account_id: target.account.id, bio: 'Buy followers here' });
    const res = await reporter.site.post('/api/v1/reports', {
      on: 'PROFILE',
      username: 'rep_target_one',
      reason: 'SPAM',
      details: 'Sells followers',
    });
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.equal({ data: { received: true } });
    expect(res.headers.get('x-ratelimit-limit')).to.equal(null);
    const [stored] = await reportsBy(reporter.account.id);
    expect(stored).to.include({
      target_kind: 'PROFILE',
      reason: 'SPAM',
      target_account_id: target.account.id,
      target_id: target.account.id,
      details: 'Sells followers',
      status: 'open',
      priority: 2,
    });
    expect(stored.snapshot).to.include({ username: 'rep_target_one', bio: 'Buy followers here' });
  });

  it('takes a report from any live key, charging the write allowance', async () => {
    const reporter = await person('rep_with_key');
    await person('rep_target_key');
    const { token } = await appWithKey(reporter.account.id, []);
    const res = await app.client.post(
      '/api/v1/reports',
      { on: 'PROFILE', username: 'rep_target_key', reason: 'IMPERSONATION' },
      bearer(token),
    );
    expect(res.status).to.equal(201);
    expect(res.headers.get('x-ratelimit-resource')).to.equal('write');
    expect(res.headers.get('x-ratelimit-limit')).to.equal('1000');
    expect(res.headers.get('x-ratelimit-remaining')).to.equal('999');
    expect(res.headers.get('x-ratelimit-reset')).to.match(/^\d+$/);
  });

  it('refuses anonymous callers with 401', async () => {
    const res = await app.client.post('/api/v1/reports', { on: 'PROFILE', username: 'nobody_here', reason: 'SPAM' });
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('unauthorized');
  });

  it('answers a key 403 on ARCADE_APP (session only), still charging it; a session gets 404 for an app id that is no game', async () => {
    const reporter = await person('rep_arcade');
    const { token } = await appWithKey(reporter.account.id, []);
    const body = { on: 'ARCADE_APP', id: '00000000-0000-4000-8000-000000000001', reason: 'SCAM' };
    const byKey = await app.client.post('/api/v1/reports', body, bearer(token));
    expect(byKey.status).to.equal(403);
    expect(byKey.body.error.code).to.equal('forbidden');
    expect(byKey.headers.get('x-ratelimit-resource')).to.equal('write');
    // No game has this app id.
    const bySession = await reporter.site.post('/api/v1/reports', {
      ...body,
      instance_id: '00000000-0000-4000-8000-000000000002',
    });
    expect(bySession.status).to.equal(404);
    expect(bySession.body.error.code).to.equal('not_found');
    expect(await reportsBy(reporter.account.id)).to.have.length(0);
  });

  describe('field rules (400 invalid_request naming the field)', () => {
    const uuid = '00000000-0000-4000-8000-0000000000ff';
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['on is required', { username: 'rule_target', reason: 'SPAM' }, 'on', 'missing'],
      ['on is one of the kinds', { on: 'GAME', username: 'rule_target', reason: 'SPAM' }, 'on', 'not_allowed'],
      ['reason is required', { on: 'PROFILE', username: 'rule_target' }, 'reason', 'missing'],
      [
        'reason is one of the reasons',
        { on: 'PROFILE', username: 'rule_target', reason: 'RUDE' },
        'reason',
        'not_allowed',
      ],
      [
        'unknown fields are refused',
        { on: 'PROFILE', username: 'rule_target', reason: 'SPAM', extra: 1 },
        'extra',
        'unknown_field',
      ],
      ['username is required but for ARCADE_APP', { on: 'REVIEW', id: uuid, reason: 'SPAM' }, 'username', 'missing'],
      ['username is a string', { on: 'PROFILE', username: 7, reason: 'SPAM' }, 'username', 'wrong_type'],
      [
        'ARCADE_APP takes no username',
        { on: 'ARCADE_APP', username: 'rule_target', id: uuid, reason: 'SCAM' },
        'username',
        'not_allowed',
      ],
      ['id is required but for PROFILE', { on: 'REVIEW', username: 'rule_target', reason: 'SPAM' }, 'id', 'missing'],
      ['ARCADE_APP needs its id too', { on: 'ARCADE_APP', reason: 'SCAM' }, 'id', 'missing'],
      [
        'PROFILE takes no id',
        { on: 'PROFILE', username: 'rule_target', id: uuid, reason: 'SPAM' },
        'id',
        'not_allowed',
      ],
      [
        'SPOILER is never on PROFILE',
        { on: 'PROFILE', username: 'rule_target', reason: 'SPOILER' },
        'reason',
        'not_allowed',
      ],
      [
        'SCAM is only on ARCADE_APP',
        { on: 'REVIEW', username: 'rule_target', id: uuid, reason: 'SCAM' },
        'reason',
        'not_allowed',
      ],
      ['OTHER needs details', { on: 'PROFILE', username: 'rule_target', reason: 'OTHER' }, 'details', 'missing'],
      [
        'OTHER needs 10 characters after trimming',
        { on: 'PROFILE', username: 'rule_target', reason: 'OTHER', details: '   too short  ' },
        'details',
        'too_short',
      ],
      [
        'details hold up to 1000 characters',
        { on: 'PROFILE', username: 'rule_target', reason: 'SPAM', details: 'x'.repeat(1001) },
        'details',
        'too_long',
      ],
      [
        'instance_id is only for ARCADE_APP',
        { on: 'REVIEW', username: 'rule_target', id: uuid, reason: 'SPAM', instance_id: uuid },
        'instance_id',
        'not_allowed',
      ],
      [
        'instance_id is a uuid',
        { on: 'ARCADE_APP', id: uuid, reason: 'SCAM', instance_id: 'play-1' },
        'instance_id',
        'bad_format',
      ],
    ];
    let reporter: Awaited<ReturnType<typeof person>>;
    before(async () => {
      reporter = await person('rule_reporter');
      await person('rule_target');
    });

    for (const [rule, body, field, reason] of cases) {
      it(rule, async () => {
        const res = await reporter.site.post('/api/v1/reports', body);
        expect(res.status, res.text).to.equal(400);
        expect(res.body.error).to.include({ code: 'invalid_request', field, reason });
      });
    }

    it('accepts OTHER with 10 characters once trimmed, and exactly 1000 characters of details', async () => {
      const other = { on: 'PROFILE', username: 'rule_target', reason: 'OTHER', details: '  ten chars!  ' };
      expect((await reporter.site.post('/api/v1/reports', other)).status).to.equal(201);
      const full = { on: 'PROFILE', username: 'rule_target', reason: 'HARASSMENT', details: 'y'.repeat(1000) };
      // A second open report on the same profile is the one-open rule's 409, not a field error.
      expect((await reporter.site.post('/api/v1/reports', full)).status).to.equal(409);
      expect(await reportsBy(reporter.account.id)).to.have.length(1);
    });
  });

  it('refuses reporting oneself, by current name or alias', async () => {
    const self = await person('rep_self');
    const res = await self.site.post('/api/v1/reports', { on: 'PROFILE', username: 'REP_SELF', reason: 'SPAM' });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'invalid_request', field: 'username', reason: 'not_allowed' });
    const mine = await review(self.account.id);
    const own = await self.site.post('/api/v1/reports', {
      on: 'REVIEW',
      username: 'rep_self',
      id: mine.id,
      reason: 'SPAM',
    });
    expect(own.status).to.equal(400);
  });

  it('holds one open report per target: 409 while open, allowed again once resolved', async () => {
    const reporter = await person('rep_twice');
    const target = await person('rep_twice_target');
    const written = await review(target.account.id);
    const body = { on: 'REVIEW', username: 'rep_twice_target', id: written.id, reason: 'HATE_SPEECH' };
    expect((await reporter.site.post('/api/v1/reports', body)).status).to.equal(201);
    const again = await reporter.site.post('/api/v1/reports', { ...body, reason: 'HARASSMENT' });
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('conflict');
    // Another person's open report on the same review is theirs alone.
    const other = await person('rep_twice_other');
    expect((await other.site.post('/api/v1/reports', body)).status).to.equal(201);

    const moderator = await staffMember(app.client, 'rep_twice_mod');
    const [open] = await reportsBy(reporter.account.id);
    const resolved = await moderator.site.post(`/api/v1/moderation/reports/${open.id}/resolve`, {
      outcome: 'no_action',
    });
    expect(resolved.status).to.equal(200);
    expect((await reporter.site.post('/api/v1/reports', body)).status).to.equal(201);
    expect(await reportsBy(reporter.account.id)).to.have.length(2);
  });

  it('lets only one of several simultaneous identical reports in; the others are 409', async () => {
    const reporter = await person('rep_racing');
    await person('rep_race_target');
    const body = { on: 'PROFILE', username: 'rep_race_target', reason: 'SPAM' };
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => reporter.site.post('/api/v1/reports', body)));
    expect(answers.map((res) => res.status).sort()).to.deep.equal([201, 409, 409, 409, 409]);
    expect(await reportsBy(reporter.account.id)).to.have.length(1);
  });

  it('counts a profile by its account, so a rename does not make a second open report', async () => {
    const reporter = await person('rep_rename');
    const target = await person('rep_old_name');
    expect(
      (await reporter.site.post('/api/v1/reports', { on: 'PROFILE', username: 'rep_old_name', reason: 'SPAM' })).status,
    ).to.equal(201);
    expect((await target.site.patch('/api/v1/account/username', { username: 'rep_new_name' })).status).to.equal(200);
    const renamed = await reporter.site.post('/api/v1/reports', {
      on: 'PROFILE',
      username: 'rep_new_name',
      reason: 'SPAM',
    });
    expect(renamed.status).to.equal(409);
  });

  it('answers 404 for an unknown name, an unknown id, a malformed id and another person’s item', async () => {
    const reporter = await person('rep_missing');
    await person('rep_owner');
    const bystander = await person('rep_bystander');
    const theirs = await review(bystander.account.id);
    const attempts = [
      { on: 'PROFILE', username: 'nobody_has_this', reason: 'SPAM' },
      { on: 'REVIEW', username: 'rep_owner', id: '00000000-0000-4000-8000-000000000009', reason: 'SPAM' },
      { on: 'REVIEW', username: 'rep_owner', id: 'not-a-uuid', reason: 'SPAM' },
      { on: 'REVIEW', username: 'rep_owner', id: theirs.id, reason: 'SPAM' },
      { on: 'LIST', username: 'rep_owner', id: 'nope', reason: 'SPAM' },
    ];
    for (const body of attempts) {
      const res = await reporter.site.post('/api/v1/reports', body);
      expect(res.status, JSON.stringify(body)).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
    }
    expect(await reportsBy(reporter.account.id)).to.have.length(0);
  });

  it('answers 404 for what the reporter cannot see: a private item, a followers-only one to others', async () => {
    const reporter = await person('rep_outsider');
    const owner = await person('rep_private_owner');
    const hidden = await review(owner.account.id, { visibility: 'PRIVATE' });
    const friendsOnly = await review(owner.account.id, { visibility: 'FOLLOWERS' });
    for (const item of [hidden, friendsOnly]) {
      const res = await reporter.site.post('/api/v1/reports', {
        on: 'REVIEW',
        username: 'rep_private_owner',
        id: item.id,
        reason: 'SPAM',
      });
      expect(res.status).to.equal(404);
    }
    await db()('follows').insert({ follower_id: reporter.account.id, followee_id: owner.account.id });
    const asFollower = await reporter.site.post('/api/v1/reports', {
      on: 'REVIEW',
      username: 'rep_private_owner',
      id: friendsOnly.id,
      reason: 'SPAM',
    });
    expect(asFollower.status).to.equal(201);
  });

  it('answers 404 when the person blocked the reporter, but takes a report on someone the reporter blocked', async () => {
    const reporter = await person('rep_blocked');
    const blocker = await person('rep_blocker');
    const pest = await person('rep_pest');
    await block(blocker.account.id, reporter.account.id);
    await block(reporter.account.id, pest.account.id);
    const written = await review(blocker.account.id);
    const hidden = [
      { on: 'PROFILE', username: 'rep_blocker', reason: 'HARASSMENT' },
      { on: 'REVIEW', username: 'rep_blocker', id: written.id, reason: 'HARASSMENT' },
    ];
    for (const body of hidden) expect((await reporter.site.post('/api/v1/reports', body)).status).to.equal(404);
    const blockedByMe = await reporter.site.post('/api/v1/reports', {
      on: 'PROFILE',
      username: 'rep_pest',
      reason: 'HARASSMENT',
    });
    expect(blockedByMe.status).to.equal(201);
  });

  it('refuses a suspended account’s report like any other write (403 suspended)', async () => {
    const reporter = await person('rep_suspended');
    await person('rep_suspended_target');
    await db()('infractions').insert({
      account_id: reporter.account.id,
      reason: 'Suspensão',
      expires_at: new Date(Date.now() + 86_400_000),
    });
    const res = await reporter.site.post('/api/v1/reports', {
      on: 'PROFILE',
      username: 'rep_suspended_target',
      reason: 'SPAM',
    });
    expect(res.status).to.equal(403);
    expect(res.body.error).to.include({ code: 'forbidden', reason: 'suspended' });
  });
});

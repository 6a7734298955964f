// The attempt limiter under concurrency, on the real rate_limits table: a use is taken atomically before
// the work, so N parallel callers against a limit of L get exactly L through, whatever the interleaving.
import { expect } from 'chai';
import { db } from '../../shared/platform/db/knex.js';
import { isApiError } from '../../shared/platform/errors.js';
import { AttemptLimiter, type AttemptRule } from '../../shared/platform/rate-limits/attempt-limiter.js';

let serial = 0;
const rule = (failures: number): AttemptRule => ({
  name: `unit-${process.pid}-${++serial}`,
  failures,
  windowSeconds: 600,
});

async function outcomes<T>(tries: Promise<T>[]) {
  const settled = await Promise.allSettled(tries);
  const refused = settled.filter((s) => s.status === 'rejected' && isApiError(s.reason) && s.reason.status === 429);
  const other = settled.filter((s) => s.status === 'rejected' && !(isApiError(s.reason) && s.reason.status === 429));
  expect(other, 'only 429 refusals').to.deep.equal([]);
  return { passed: settled.length - refused.length, refused: refused.length };
}

describe('AttemptLimiter', () => {
  it('checks exactly 5 of 40 parallel wrong guesses, and counts 5 failures', async () => {
    const limiter = new AttemptLimiter(db(), rule(5));
    let checked = 0;
    const wrong = async () => {
      checked += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return false;
    };
    const result = await outcomes(Array.from({ length: 40 }, () => limiter.guess(['account:a', 'ip:x'], wrong)));
    expect(result).to.deep.equal({ passed: 5, refused: 35 });
    expect(checked).to.equal(5);
    expect(await limiter.remaining('account:a')).to.equal(0);
    expect(await limiter.remaining('ip:x')).to.equal(0);
  });

  it('gives a right guess its use back, so only failures count', async () => {
    const limiter = new AttemptLimiter(db(), rule(2));
    expect(await limiter.guess(['s'], async () => true)).to.equal(true);
    expect(await limiter.guess(['s'], async () => false)).to.equal(false);
    expect(await limiter.remaining('s')).to.equal(1);
  });

  it('refuses all subjects together: a used-up address takes nothing from the account', async () => {
    const limiter = new AttemptLimiter(db(), rule(1));
    await limiter.spend(['ip:busy']);
    const refused = await limiter.spend(['account:fresh', 'ip:busy']).catch((error: unknown) => error);
    expect(isApiError(refused) && refused.status).to.equal(429);
    expect(await limiter.remaining('account:fresh')).to.equal(1);
  });

  it('lets exactly N of many parallel works through `within`, and gives back what a refusal did not spend', async () => {
    const limiter = new AttemptLimiter(db(), rule(5));
    let done = 0;
    const works = Array.from({ length: 30 }, (_, i) =>
      limiter.within(['app:1'], async () => {
        await new Promise((resolve) => setTimeout(resolve, 3));
        // Every third work is refused by its own rules: it must not spend the allowance.
        if (i % 3 === 0) throw new Error('refused by the work');
        done += 1;
      }),
    );
    const settled = await Promise.allSettled(works);
    const own = settled.filter((s) => s.status === 'rejected' && !isApiError(s.reason)).length;
    expect(done).to.be.at.most(5);
    // Whatever ran and was refused gave its use back; the ones that finished hold theirs.
    expect(await limiter.remaining('app:1')).to.equal(5 - done);
    expect(own + done + settled.filter((s) => s.status === 'rejected' && isApiError(s.reason)).length).to.equal(30);
    // With every place given back by refusals, later works still fill the limit exactly.
    const more = await outcomes(Array.from({ length: 20 }, () => limiter.within(['app:1'], async () => undefined)));
    expect(more.passed).to.equal(5 - done);
  });

  it('never counts below zero when a use is given back twice or after its window ended', async () => {
    const limiter = new AttemptLimiter(db(), rule(3));
    const reservation = await limiter.reserve(['twice']);
    await reservation.release();
    await reservation.release();
    expect(await limiter.remaining('twice')).to.equal(3);
    const late = await limiter.reserve(['late']);
    await db()('rate_limits')
      .where('key', 'like', '%:late')
      .update({ expire: Date.now() - 1 });
    await late.release();
    const row = await db()('rate_limits').where('key', 'like', '%:late').first('points');
    expect(row.points).to.equal(1);
  });
});

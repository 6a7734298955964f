// The outbound guard's memory of DNS answers (shared/platform/net/resolver-cache.ts): one lookup per name
// for a while, shared by the lookups made meanwhile; failures asked again; the oldest name forgotten first.
import { expect } from 'chai';
import { cachingResolver } from '../../shared/platform/net/resolver-cache.js';

function countingResolver(answer: (hostname: string) => Promise<string[]>) {
  const asked: string[] = [];
  const resolve = (hostname: string) => {
    asked.push(hostname);
    return answer(hostname);
  };
  return { asked, resolve };
}

describe('outbound guard: kept DNS answers', () => {
  it('asks once per name within the time, shared by lookups made at once, and again after it', async () => {
    let clock = 1_000;
    const system = countingResolver(async () => ['203.0.113.7']);
    const resolve = cachingResolver(system.resolve, 30_000, () => clock);
    const burst = await Promise.all(Array.from({ length: 250 }, () => resolve('game.example.com')));
    expect(burst.every((answers) => answers[0] === '203.0.113.7')).to.equal(true);
    expect(system.asked).to.deep.equal(['game.example.com']);
    clock += 29_999;
    await resolve('game.example.com');
    await resolve('other.example.com');
    expect(system.asked).to.deep.equal(['game.example.com', 'other.example.com']);
    clock += 1;
    await resolve('game.example.com');
    expect(system.asked).to.deep.equal(['game.example.com', 'other.example.com', 'game.example.com']);
  });

  it('keeps no failure: the next lookup asks again', async () => {
    let fail = true;
    const system = countingResolver(async () => {
      if (fail) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return ['203.0.113.8'];
    });
    const resolve = cachingResolver(system.resolve, 30_000);
    const refused = await resolve('new.example.com').catch((error: Error) => error);
    expect(refused).to.be.instanceOf(Error);
    fail = false;
    expect(await resolve('new.example.com')).to.deep.equal(['203.0.113.8']);
    expect(system.asked).to.have.length(2);
  });

  it('forgets the oldest name beyond 1,000', async () => {
    const system = countingResolver(async () => ['203.0.113.9']);
    const resolve = cachingResolver(system.resolve, 30_000);
    for (let i = 0; i <= 1000; i += 1) await resolve(`host${i}.example.com`);
    expect(system.asked).to.have.length(1001);
    await resolve('host1000.example.com');
    expect(system.asked).to.have.length(1001);
    await resolve('host0.example.com');
    expect(system.asked).to.have.length(1002);
  });
});

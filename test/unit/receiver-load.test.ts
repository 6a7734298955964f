// A receiver's limit of attempts in flight (shared/delivery/receiver-load.ts): MIN_IN_FLIGHT at first, as
// many as it answered in the last two seconds once that is more; an attempt beyond it waits for the room an
// end frees (admission 0) while the receiver makes progress, and is deferred (admission: the seconds to
// wait) once it stalls, or when at the receiver's pace its turn is too far. Time-outs are ends but not
// answers. Each case uses a receiver of its own.
import { expect } from 'chai';
import {
  admission,
  attemptEnded,
  DEFER_SECONDS,
  MIN_IN_FLIGHT,
  receiverLoad,
} from '../../shared/delivery/receiver-load.js';

let receivers = 0;
const newReceiver = () => `https://receiver-${(receivers += 1)}.example.test/events`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` settled within `ms`, and with what. */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ settled: boolean; value?: T }> {
  const timeout = Symbol('timeout');
  const value = await Promise.race([promise, sleep(ms).then(() => timeout)]);
  return value === timeout ? { settled: false } : { settled: true, value: value as T };
}

async function fill(url: string, count: number): Promise<void> {
  const rooms = await Promise.all(Array.from({ length: count }, () => admission(url)));
  expect(
    rooms.every((deferBy) => deferBy === 0),
    `${count} rooms at once`,
  ).to.equal(true);
}

describe('a receiver’s attempts in flight', () => {
  it('gives MIN_IN_FLIGHT attempts room at once, and the next one the room an answer frees', async () => {
    const url = newReceiver();
    await fill(url, MIN_IN_FLIGHT);
    const next = admission(url);
    expect((await within(next, 100)).settled, 'beyond the limit it waits').to.equal(false);
    attemptEnded(url, true);
    expect(await within(next, 100)).to.deep.equal({ settled: true, value: 0 });
    expect(receiverLoad(url)).to.deep.equal({ inFlight: MIN_IN_FLIGHT, limit: MIN_IN_FLIGHT });
  });

  it('allows as many as the receiver answered in the last two seconds, and time-outs do not count', async () => {
    const answering = newReceiver();
    const timingOut = newReceiver();
    for (let i = 0; i < 3 * MIN_IN_FLIGHT; i += 1) {
      await admission(answering);
      attemptEnded(answering, true);
      await admission(timingOut);
      attemptEnded(timingOut, false);
    }
    expect(receiverLoad(answering).limit).to.equal(3 * MIN_IN_FLIGHT);
    await fill(answering, 3 * MIN_IN_FLIGHT);
    expect(receiverLoad(timingOut).limit).to.equal(MIN_IN_FLIGHT);
  });

  it('defers an attempt at once when the receiver at its limit has answered nothing for a second', async () => {
    const url = newReceiver();
    await fill(url, MIN_IN_FLIGHT);
    await sleep(1100);
    expect(await within(admission(url), 50)).to.deep.equal({ settled: true, value: DEFER_SECONDS });
    // A time-out is no answer: still stalled.
    attemptEnded(url, false);
    await fill(url, 1);
    expect(await within(admission(url), 50)).to.deep.equal({ settled: true, value: DEFER_SECONDS });
    // An answer is progress again: the next one waits for room.
    attemptEnded(url, true);
    await fill(url, 1);
    expect((await within(admission(url), 100)).settled).to.equal(false);
  });

  it('defers an attempt that waited two seconds for room', async () => {
    const url = newReceiver();
    await fill(url, MIN_IN_FLIGHT);
    const waiting = admission(url);
    // Asked while the receiver had not stalled yet, it waits; nothing ends in two seconds.
    const late = await within(waiting, 2500);
    expect(late).to.deep.equal({ settled: true, value: DEFER_SECONDS });
    expect(receiverLoad(url).inFlight).to.equal(MIN_IN_FLIGHT);
  });

  it('keeps attempts waiting past two seconds while the receiver’s pace reaches them in time', async () => {
    const url = newReceiver();
    const asked = await backlog(url, 600, { endsPerTick: 1, tickMs: 10 });
    // About 100 answers a second: at two seconds some 200 attempts still wait, all within 400 places.
    await sleep(2300);
    expect(asked.stillWaiting(), 'some still wait').to.be.above(0);
    expect(asked.deferred(), 'none deferred').to.deep.equal([]);
    await asked.drain();
  });

  it('defers the attempts a slow receiver would not reach in time, by about when their turn would come', async () => {
    const url = newReceiver();
    const asked = await backlog(url, 200, { endsPerTick: 1, tickMs: 100 });
    // About 10 answers a second: at two seconds the 40 places nearest keep waiting (four seconds of answers
    // at that pace), and each attempt further back is deferred by the seconds its place is away.
    await sleep(2300);
    const deferred = asked.deferred();
    expect(deferred.length, 'deferred').to.be.within(120, 170);
    for (const seconds of deferred) expect(seconds).to.be.within(3, 5);
    expect(asked.stillWaiting(), 'kept').to.be.within(15, 45);
    await asked.drain();
  });
});

/**
 * MIN_IN_FLIGHT attempts in flight at `url` and `count` more asked at once, while the receiver answers
 * `endsPerTick` of those in flight every `tickMs`. `drain` answers every attempt left, for the next case.
 */
async function backlog(url: string, count: number, pace: { endsPerTick: number; tickMs: number }) {
  await fill(url, MIN_IN_FLIGHT);
  const outcomes: number[] = [];
  for (let i = 0; i < count; i += 1) void admission(url).then((deferBy) => outcomes.push(deferBy));
  const answer = (ends: number) => {
    for (let i = 0; i < ends && receiverLoad(url).inFlight > 0; i += 1) attemptEnded(url, true);
  };
  const ticker = setInterval(() => answer(pace.endsPerTick), pace.tickMs);
  return {
    stillWaiting: () => count - outcomes.length,
    deferred: () => outcomes.filter((deferBy) => deferBy !== 0),
    async drain() {
      clearInterval(ticker);
      while (outcomes.length < count || receiverLoad(url).inFlight > 0) {
        answer(MIN_IN_FLIGHT);
        await sleep(1);
      }
    },
  };
}

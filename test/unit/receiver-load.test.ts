// A receiver's limit of attempts in flight (shared/delivery/receiver-load.ts): MIN_IN_FLIGHT at first, as
// many as it answered in the last two seconds once that is more; an attempt beyond it waits for the room an
// end frees while the receiver makes progress, and is deferred (false) once it stalls or waited too long.
// Time-outs are ends but not answers. Each case uses a receiver of its own.
import { expect } from 'chai';
import { attemptEnded, MIN_IN_FLIGHT, receiverLoad, roomAt } from '../../shared/delivery/receiver-load.js';

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
  const rooms = await Promise.all(Array.from({ length: count }, () => roomAt(url)));
  expect(rooms.every(Boolean), `${count} rooms at once`).to.equal(true);
}

describe('a receiver’s attempts in flight', () => {
  it('gives MIN_IN_FLIGHT attempts room at once, and the next one the room an answer frees', async () => {
    const url = newReceiver();
    await fill(url, MIN_IN_FLIGHT);
    const next = roomAt(url);
    expect((await within(next, 100)).settled, 'beyond the limit it waits').to.equal(false);
    attemptEnded(url, true);
    expect(await within(next, 100)).to.deep.equal({ settled: true, value: true });
    expect(receiverLoad(url)).to.deep.equal({ inFlight: MIN_IN_FLIGHT, limit: MIN_IN_FLIGHT });
  });

  it('allows as many as the receiver answered in the last two seconds, and time-outs do not count', async () => {
    const answering = newReceiver();
    const timingOut = newReceiver();
    for (let i = 0; i < 3 * MIN_IN_FLIGHT; i += 1) {
      await roomAt(answering);
      attemptEnded(answering, true);
      await roomAt(timingOut);
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
    expect(await within(roomAt(url), 50)).to.deep.equal({ settled: true, value: false });
    // A time-out is no answer: still stalled.
    attemptEnded(url, false);
    await fill(url, 1);
    expect(await within(roomAt(url), 50)).to.deep.equal({ settled: true, value: false });
    // An answer is progress again: the next one waits for room.
    attemptEnded(url, true);
    await fill(url, 1);
    expect((await within(roomAt(url), 100)).settled).to.equal(false);
  });

  it('defers an attempt that waited two seconds for room', async () => {
    const url = newReceiver();
    await fill(url, MIN_IN_FLIGHT);
    const waiting = roomAt(url);
    // Asked while the receiver had not stalled yet, it waits; nothing ends in two seconds.
    const late = await within(waiting, 2500);
    expect(late).to.deep.equal({ settled: true, value: false });
    expect(receiverLoad(url).inFlight).to.equal(MIN_IN_FLIGHT);
  });
});

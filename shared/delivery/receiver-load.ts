// How many attempts one receiver (a URL's origin) may have in flight in this process. Each attempt holds a
// slot of its queue's consumer (1,000) until it ends, and a receiver that accepts connections and never
// answers holds each of its attempts for the whole 10 s time-out: with more than a slot's worth of its events
// queued, it would hold every slot, and every other app's events would wait behind it. So a receiver gets
// as many attempts in flight as it answered in the last two seconds (Little's law: its attempts then wait
// about two seconds for one of its connections), and at least MIN_IN_FLIGHT: a receiver that answers quickly
// can have a backlog worked through by every slot, while a hanging one holds MIN_IN_FLIGHT of them. An
// answer is any end but a time-out (a refused connection or a 500 frees its slot at once too).
//
// An attempt beyond the limit waits here (its slot held) while the receiver is making progress: at a
// backlog's start its rate is not known yet, and each end lets the next one in. While it is stalled (no
// answer for STALLED_MS since its first attempt in flight went out) the attempt is deferred at once instead:
// its lease is released and its job sent again DEFER_SECONDS later (engine.ts), with no attempt counted,
// so its slot frees at once.

/** Attempts a receiver may have in flight whatever its rate: its connections (8) four times over. */
export const MIN_IN_FLIGHT = 32;
/** How long a receiver at its limit may go without an end before its next attempts are deferred. */
const STALLED_MS = 1000;
/** How long an attempt waits for room at a receiver making progress before it is deferred. */
const MOST_WAIT_MS = 2000;
/** How far ahead a deferred event's job is sent: the time-out, by when the stalled attempts have ended. */
export const DEFER_SECONDS = 10;
/** The window whose ends set the limit (ms), counted in two buckets of that length. */
const WINDOW_MS = 2000;

class ReceiverLoad {
  inFlight = 0;
  private bucketStart = 0;
  private current = 0;
  private previous = 0;
  /** The last answer, or when an attempt went out with none in flight (a start is progress too). */
  private progressAt = 0;
  private readonly waiting: Array<{ admit(): void; timer: NodeJS.Timeout }> = [];

  /** Ends in about the last WINDOW_MS: the previous bucket's share of the window and the current one's. */
  private recentEnds(now: number): number {
    this.roll(now);
    const share = 1 - (now - this.bucketStart) / WINDOW_MS;
    return this.current + Math.round(this.previous * Math.max(0, share));
  }

  private roll(now: number): void {
    const buckets = Math.floor((now - this.bucketStart) / WINDOW_MS);
    if (buckets <= 0) return;
    this.previous = buckets === 1 ? this.current : 0;
    this.current = 0;
    this.bucketStart += buckets * WINDOW_MS;
    if (now - this.bucketStart >= WINDOW_MS) this.bucketStart = now;
  }

  limit(now: number): number {
    return Math.max(MIN_IN_FLIGHT, this.recentEnds(now));
  }

  stalled(now: number): boolean {
    return now - this.progressAt > STALLED_MS;
  }

  /** Room for one more attempt now: taken. */
  take(now: number): boolean {
    if (this.inFlight >= this.limit(now) || this.waiting.length > 0) return false;
    if (this.inFlight === 0) this.progressAt = now;
    this.inFlight += 1;
    return true;
  }

  /** Waits for room (true, taken) or MOST_WAIT_MS, or until the receiver stalls (false: defer). */
  wait(): Promise<boolean> {
    return new Promise((resolve) => {
      const entry = {
        admit: () => {
          clearTimeout(entry.timer);
          this.inFlight += 1;
          resolve(true);
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          resolve(false);
        }, MOST_WAIT_MS),
      };
      this.waiting.push(entry);
    });
  }

  /** An attempt ended (`answered`: not by a time-out): its room goes to the next waiting one if the limit allows. */
  ended(now: number, answered: boolean): void {
    this.inFlight -= 1;
    this.roll(now);
    if (answered) {
      this.current += 1;
      this.progressAt = now;
    }
    while (this.waiting.length > 0 && this.inFlight < this.limit(now)) this.waiting.shift()!.admit();
  }

  /** Nothing in flight or waiting, and no end for long enough that its rate no longer counts. */
  forgotten(now: number): boolean {
    return this.inFlight === 0 && this.waiting.length === 0 && now - this.progressAt > 2 * WINDOW_MS;
  }
}

const loads = new Map<string, ReceiverLoad>();
/** Receivers known at most before the forgotten ones are dropped. */
const KEPT_LOADS = 1000;

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Room for one attempt at `url`'s receiver: true once it is taken (give it back with `attemptEnded`), false
 * when the attempt is to be deferred (the receiver stalled at its limit, or no room within MOST_WAIT_MS).
 */
export async function roomAt(url: string): Promise<boolean> {
  const origin = originOf(url);
  const now = Date.now();
  let load = loads.get(origin);
  if (!load) {
    if (loads.size >= KEPT_LOADS) for (const [key, old] of loads) if (old.forgotten(now)) loads.delete(key);
    loads.set(origin, (load = new ReceiverLoad()));
  }
  if (load.take(now)) return true;
  if (load.stalled(now)) return false;
  return load.wait();
}

/** An attempt at `url`'s receiver that had room ended: `answered`, or by a time-out (or a throw). */
export function attemptEnded(url: string, answered: boolean): void {
  loads.get(originOf(url))?.ended(Date.now(), answered);
}

/** What a receiver holds now, for tests and metrics: its attempts in flight and its limit. */
export function receiverLoad(url: string): { inFlight: number; limit: number } {
  const load = loads.get(originOf(url));
  return { inFlight: load?.inFlight ?? 0, limit: load?.limit(Date.now()) ?? MIN_IN_FLIGHT };
}

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
// so its slot frees at once. A waiting attempt is looked at every MOST_WAIT_MS: it is deferred then if the
// receiver stalled, or if at the pace the receiver answers its turn would not come within MOST_TOTAL_WAIT_MS
// of its asking (a slow receiver does not keep a backlog's slots); otherwise it keeps its place. (Deferred
// after a fixed 2 s, a quick receiver's backlog of thousands, whose places pass at the pace the worker
// itself can send, came back 10 s later in good part, and the worker delivered half as many a second.)

/** Attempts a receiver may have in flight whatever its rate: its connections (8) four times over. */
export const MIN_IN_FLIGHT = 32;
/** How long a receiver at its limit may go without an end before its next attempts are deferred. */
const STALLED_MS = 1000;
/** How often a waiting attempt is looked at. */
const MOST_WAIT_MS = 2000;
/** How long an attempt waits at most: its lease (15 s) must still cover the attempt (10 s at most). */
const MOST_TOTAL_WAIT_MS = 3 * MOST_WAIT_MS;
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
  /** When its current spell of work began (its first attempt after a window without any). */
  private busySince = 0;
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

  /** Answers a millisecond lately: over the window, or over the spell of work so far while that is shorter. */
  private pace(now: number): number {
    return this.recentEnds(now) / Math.max(1, Math.min(WINDOW_MS, now - this.busySince));
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
    if (this.inFlight === 0) {
      if (now - this.progressAt > WINDOW_MS) this.busySince = now;
      this.progressAt = now;
    }
    this.inFlight += 1;
    return true;
  }

  /**
   * Waits for room (0, taken), or, looked at every MOST_WAIT_MS, until the receiver stalls (DEFER_SECONDS)
   * or its pace puts this attempt's turn past MOST_TOTAL_WAIT_MS (then about when its turn would come).
   */
  wait(): Promise<number> {
    const asked = Date.now();
    return new Promise((resolve) => {
      const look = () => {
        const now = Date.now();
        const left = MOST_TOTAL_WAIT_MS - (now - asked);
        const place = this.waiting.indexOf(entry);
        const stalled = this.stalled(now);
        if (left > 0 && !stalled && place < this.pace(now) * left) {
          entry.timer = setTimeout(look, Math.min(MOST_WAIT_MS, left));
          return;
        }
        this.waiting.splice(place, 1);
        resolve(stalled ? DEFER_SECONDS : this.turnIn(place, now));
      };
      const entry = {
        admit: () => {
          clearTimeout(entry.timer);
          this.inFlight += 1;
          resolve(0);
        },
        timer: setTimeout(look, MOST_WAIT_MS),
      };
      this.waiting.push(entry);
    });
  }

  /** Whole seconds until the attempt `place` places back would have its turn at this pace (1 to DEFER_SECONDS). */
  private turnIn(place: number, now: number): number {
    const pace = this.pace(now);
    if (pace <= 0) return DEFER_SECONDS;
    return Math.min(DEFER_SECONDS, Math.max(1, Math.ceil(place / pace / 1000)));
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
 * Room for one attempt at `url`'s receiver: 0 once it is taken (give it back with `attemptEnded`), or the
 * seconds to defer the attempt by: DEFER_SECONDS when the receiver stalled at its limit, about when its
 * turn would come when the receiver is too slow to reach it in time.
 */
export async function admission(url: string): Promise<number> {
  const origin = originOf(url);
  const now = Date.now();
  let load = loads.get(origin);
  if (!load) {
    if (loads.size >= KEPT_LOADS) for (const [key, old] of loads) if (old.forgotten(now)) loads.delete(key);
    loads.set(origin, (load = new ReceiverLoad()));
  }
  if (load.take(now)) return 0;
  if (load.stalled(now)) return DEFER_SECONDS;
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

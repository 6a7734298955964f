// The live side of notifications (DECISIONS: Notifications; GET /notifications/stream): each web process
// keeps one hub, which LISTENs once on the channel every new or changed notification NOTIFYs with its
// recipient's id at commit, whichever process wrote it. A wake-up reads that recipient's rows past what
// their streams have sent, by `seq`, one page at a time: one read per account and wake, shared by all of
// that person's open streams (tabs, devices), each sending only what it has not sent. Wake-ups that arrive
// during a read make one more read after it, not one each.
//
// A NOTIFY sent while the listening connection reconnects is lost; every few seconds one statement asks, for
// every account streamed to here, whether anything committed past what its streams have sent, and wakes
// those accounts (the same re-read covers a read that failed).
//
// Only notifications to people with a stream open NOTIFY at all (migration notification_listeners): the hub
// records each account it streams to, keeps the rows fresh with its re-read, and removes an account's row
// when its last stream here closes.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Signals } from '../platform/jobs/signals.js';
import type { Logger } from '../platform/logger.js';
import {
  listenFor,
  notificationsAfter,
  readersWithNews,
  stillListening,
  stopListeningFor,
} from './load-notifications.js';
import { notificationEvent, presentNotification } from './presenters.js';
import { NOTIFICATION_CHANNEL } from './rows.js';

/** How often the streamed accounts are re-read for what a lost NOTIFY did not announce. */
export const STREAM_REREAD_MS = 10_000;
/** Rows per read: a resume after a long absence goes in pages of this many. */
export const STREAM_PAGE = 100;
/** Accounts per statement of the re-read. */
const REREAD_BATCH = 1000;
/** After an account's first stream here opens: one more read, for a writer that committed as it did. */
const SETTLE_MS = 1000;

/** One open stream as the hub sees it. */
export interface StreamSink {
  /** The highest seq this stream has sent, or starts after. */
  sent: number;
  /**
   * Whether the stream takes a page: false once it holds more than its cap unsent, and then it has ended (see
   * the route). A page is written whole, so a stream holds at most its cap and one page.
   */
  takesPage(): boolean;
  write(text: string): void;
  /**
   * Resolves once the stream has sent most of what it holds (or has ended), so the next page fits beside the
   * rest; or after a few seconds regardless, and the page then written decides whether it is cut.
   */
  drained(): Promise<void>;
}

interface Feed {
  sinks: Set<StreamSink>;
  reading: boolean;
  again: boolean;
}

let openStreams = 0;

/** Streams open in this process, on every hub: what a closed stream must give back. */
export function openNotificationStreams(): number {
  return openStreams;
}

/** An event of a page: its text, or null for a row passed over unsent (a block either way). */
interface PageEvent {
  seq: number;
  text: string | null;
}

function deliver(sink: StreamSink, events: PageEvent[]): void {
  if (!events.some((event) => event.seq > sink.sent) || !sink.takesPage()) return;
  for (const event of events) {
    if (event.seq <= sink.sent) continue;
    if (event.text !== null) sink.write(event.text);
    sink.sent = event.seq;
  }
}

const lowest = (sinks: Iterable<StreamSink>) => Math.min(...[...sinks].map((sink) => sink.sent));

export class NotificationHub {
  private readonly feeds = new Map<string, Feed>();
  private listening: Promise<void> | null = null;
  private rereads: NodeJS.Timeout | null = null;
  private readonly onSignal = (accountId: string) => this.wake(accountId);
  /** This process's name in notification_listeners. */
  private readonly listener = randomUUID();

  constructor(
    private readonly signals: Signals,
    private readonly knex: Knex,
    private readonly mediaUrl: (key: string) => string,
    private readonly log: Logger,
  ) {}

  /**
   * Adds a stream of `accountId`, which gets every notification past `sink.sent` from now on, starting with
   * any already committed (a resume's backlog, or one written before this process listened). Answers the
   * removal, which the stream calls once it closes.
   */
  async subscribe(accountId: string, sink: StreamSink): Promise<() => void> {
    // A failed start is tried again by the next stream (the same handler: the channel keeps one).
    this.listening ??= this.signals.listen(NOTIFICATION_CHANNEL, this.onSignal).catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    await this.listening;
    let feed = this.feeds.get(accountId);
    const first = !feed;
    if (!feed) this.feeds.set(accountId, (feed = { sinks: new Set(), reading: false, again: false }));
    feed.sinks.add(sink);
    if (first) {
      // Before the first read: notifications to this account NOTIFY from here on. Failing that, the slow
      // re-read still delivers them.
      await listenFor(this.knex, accountId, this.listener).catch((error: unknown) =>
        this.log.warn({ err: error, account_id: accountId }, 'could not listen for notifications'),
      );
      setTimeout(() => this.wake(accountId), SETTLE_MS).unref();
    }
    openStreams += 1;
    if (!this.rereads) {
      this.rereads = setInterval(() => void this.reread(), STREAM_REREAD_MS);
      this.rereads.unref();
    }
    this.wake(accountId);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      openStreams -= 1;
      feed.sinks.delete(sink);
      if (feed.sinks.size === 0 && this.feeds.get(accountId) === feed) {
        this.feeds.delete(accountId);
        stopListeningFor(this.knex, accountId, this.listener).catch((error: unknown) =>
          this.log.warn({ err: error, account_id: accountId }, 'could not stop listening for notifications'),
        );
      }
      if (this.feeds.size === 0 && this.rereads) {
        clearInterval(this.rereads);
        this.rereads = null;
      }
    };
  }

  /** Something changed for `accountId`: its streams here read what is new. */
  wake(accountId: string): void {
    const feed = this.feeds.get(accountId);
    if (!feed) return;
    if (feed.reading) {
      feed.again = true;
      return;
    }
    void this.read(accountId, feed);
  }

  private async read(accountId: string, feed: Feed): Promise<void> {
    feed.reading = true;
    try {
      do {
        feed.again = false;
        await this.readPages(accountId, feed);
      } while (feed.again);
    } catch (error) {
      // The re-read comes back to it.
      this.log.warn({ err: error, account_id: accountId }, 'could not read notifications for a stream');
    } finally {
      feed.reading = false;
    }
  }

  private async readPages(accountId: string, feed: Feed): Promise<void> {
    while (feed.sinks.size > 0) {
      const after = lowest(feed.sinks);
      const rows = await notificationsAfter(this.knex, accountId, after, STREAM_PAGE);
      // Presented once, whichever of the account's streams send it.
      const events = rows.map((row) => ({
        seq: row.seq,
        text: row.hidden ? null : notificationEvent(row.seq, presentNotification(row, this.mediaUrl)),
      }));
      for (const sink of [...feed.sinks]) deliver(sink, events);
      // A full page may have more behind it; every stream still open has now sent past it.
      if (rows.length < STREAM_PAGE || feed.sinks.size === 0 || lowest(feed.sinks) <= after) return;
      // A long resume goes at the pace its clients read, not all at once into their buffers.
      await Promise.all([...feed.sinks].map((sink) => sink.drained()));
    }
  }

  private async reread(): Promise<void> {
    const reached = [...this.feeds].map(([accountId, feed]) => ({ accountId, seq: lowest(feed.sinks) }));
    try {
      await stillListening(this.knex, this.listener);
      for (let i = 0; i < reached.length; i += REREAD_BATCH) {
        for (const accountId of await readersWithNews(this.knex, reached.slice(i, i + REREAD_BATCH))) {
          this.wake(accountId);
        }
      }
    } catch (error) {
      this.log.warn({ err: error }, 'could not re-read notifications for the open streams');
    }
  }
}

// Recording views (DECISIONS: History): one row per account and thing, a repeat view moving it to the top.
// Reads hand their views to the process's ViewRecorder after their answer has gone out
// (api/middleware/record-view.ts); it writes what gathered over the last few milliseconds in one statement,
// the database function `record_views` (migration 20261126000300_record_history, which says why it commits
// without waiting for the flush and leaves the 500 to reads and the purge). One upsert per view, each its
// own round trip and commit, took recording sessions' reads to 0.72x of the rate of reads that record
// nothing; gathered, the round trips and commits are shared.
//
// What a crash can lose: the views of the last window (50 ms) of a process killed without its shutdown,
// which flushes them. A view's loss costs a person one line of their history, never a read.
import type { Knex } from 'knex';
import type { Logger } from '../platform/logger.js';
import { queryPrepared } from '../platform/db/prepared.js';
import type { ViewedThing } from './history-rules.js';

const RECORD_VIEWS = 'SELECT record_views($1::uuid[], $2::int[], $3::uuid[])';

interface View {
  reader: string;
  game: number | null;
  profile: string | null;
}

/** How long views gather before they are written, and how many make a write at once. */
const WINDOW_MS = 50;
const BATCH = 500;

export class ViewRecorder {
  private pending = new Map<string, View>();
  private timer: NodeJS.Timeout | null = null;
  private writing = new Set<Promise<void>>();

  constructor(
    private readonly knex: Knex,
    private readonly log: Logger,
  ) {}

  /** Records, within the window, that `readerId` viewed `thing` (the caller decided the read is recorded). */
  add(readerId: string, thing: ViewedThing): void {
    const view: View =
      'game' in thing
        ? { reader: readerId, game: thing.game, profile: null }
        : { reader: readerId, game: null, profile: thing.profile };
    // A repeat within the window is one view: one statement may not upsert a row twice.
    const key = `${readerId}:${view.game ?? ''}:${view.profile ?? ''}`;
    this.pending.delete(key);
    this.pending.set(key, view);
    if (this.pending.size >= BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), WINDOW_MS);
      this.timer.unref();
    }
  }

  /** Writes what has gathered now; resolves when every write begun so far is done (shutdown awaits it). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const views = [...this.pending.values()];
    this.pending = new Map();
    if (views.length > 0) {
      const write = this.write(views).finally(() => this.writing.delete(write));
      this.writing.add(write);
    }
    await Promise.all(this.writing);
  }

  private async write(views: View[]): Promise<void> {
    try {
      await recordViews(this.knex, views);
    } catch (error) {
      // One bad view (a game deleted meanwhile) must not lose the others: each is tried alone.
      this.log.warn({ err: error, views: views.length }, 'could not record views together; trying each alone');
      for (const view of views) {
        await recordViews(this.knex, [view]).catch((single: unknown) =>
          this.log.warn({ err: single, account_id: view.reader }, 'could not record a view in the history'),
        );
      }
    }
  }
}

async function recordViews(knex: Knex, views: View[]): Promise<void> {
  await queryPrepared(knex, 'jogatina_record_views', RECORD_VIEWS, [
    views.map((view) => view.reader),
    views.map((view) => view.game),
    views.map((view) => view.profile),
  ]);
}

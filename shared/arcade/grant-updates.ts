// Telling open plays that something changed for them (spec: Events, `GRANT_UPDATE`; States: a development
// URL cleared or moved closes the game open on it within 30 seconds). Changes NOTIFY one channel at commit;
// each web process keeps one listener and hands the news to the play streams open on it
// (api/routes/arcade/play-stream.ts). A stream also re-reads its state every few seconds, so a
// notification lost while the listener reconnects costs at most that long.
import type { Knex } from 'knex';
import type { Signals } from '../platform/jobs/signals.js';

export const PLAY_CHANNEL = 'jogatina_arcade_play';

export interface PlayNews {
  app_id: string;
  /** Set for a player's grant; absent for news about the game itself (its development URL). */
  account_id?: string;
  kind: 'grant' | 'override';
}

export async function notifyGrantUpdate(trx: Knex.Transaction, accountId: string, appId: string): Promise<void> {
  const news: PlayNews = { app_id: appId, account_id: accountId, kind: 'grant' };
  await trx.raw('SELECT pg_notify(?, ?)', [PLAY_CHANNEL, JSON.stringify(news)]);
}

export async function notifyOverrideChange(knex: Knex | Knex.Transaction, appId: string): Promise<void> {
  const news: PlayNews = { app_id: appId, kind: 'override' };
  await knex.raw('SELECT pg_notify(?, ?)', [PLAY_CHANNEL, JSON.stringify(news)]);
}

type Listener = (news: PlayNews) => void;

/** One per process: play streams subscribe by game; the LISTEN starts with the first of them. */
export class PlayNewsHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private listening: Promise<void> | null = null;

  constructor(private readonly signals: Signals) {}

  async subscribe(appId: string, listener: Listener): Promise<() => void> {
    this.listening ??= this.signals.listen(PLAY_CHANNEL, (payload) => this.dispatch(payload));
    await this.listening;
    let set = this.listeners.get(appId);
    if (!set) this.listeners.set(appId, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0) this.listeners.delete(appId);
    };
  }

  private dispatch(payload: string): void {
    let news: PlayNews;
    try {
      news = JSON.parse(payload) as PlayNews;
    } catch {
      return;
    }
    for (const listener of this.listeners.get(news.app_id) ?? []) listener(news);
  }
}

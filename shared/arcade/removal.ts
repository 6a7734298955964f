// Removing a game (spec: POST .../remove): permanent. The game stops being playable at once, its slug and
// origins stay claimed forever (arcade_claims), and its rows stay as evidence for 180 days, after which
// the retention purge deletes them. The developer is emailed.
import type { Knex } from 'knex';
import { lockOpenGame, recordEvent } from './games.js';
import { emailDeveloper } from './review.js';
import type { ArcadeApp } from './rows.js';
import { fn } from 'objection';
import { ArcadeGame, ArcadeOverride } from './models.js';

export async function removeGame(knex: Knex, game: ArcadeApp): Promise<ArcadeApp> {
  return knex.transaction(async (trx) => {
    // Removing again is a move on a removed game like any other: 409 `app_removed`.
    const current = await lockOpenGame(trx, game.app_id);
    const [removed] = await ArcadeGame.query(trx)
      .where({ app_id: game.app_id })
      .patch({ status: 'removed', removed_at: fn.now(), live_release_id: null })
      .returning('*');
    await ArcadeOverride.query(trx).deleteById(game.app_id);
    await recordEvent(trx, game.app_id, 'removed');
    await emailDeveloper(
      trx,
      current,
      `Your Arcade game ${current.slug} is removed`,
      `Your Arcade game ${current.slug} was removed from Arcade. This cannot be undone; its address and ` +
        `origins will never serve another game.`,
    );
    return removed as ArcadeApp;
  });
}

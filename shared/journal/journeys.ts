// The owner's journeys (runs through one game) written (DECISIONS: Journal): created, changed, deleted. At
// most 1,000 per account, counted under a per-account advisory lock held to the end of the creating
// transaction, so parallel creations queue and exactly the places left are taken. A journey is a feed item
// (kind `journey`) from its creation; its items and the comments on it go with it (a trigger).
import type { Knex } from 'knex';
import type { ContentVisibility } from '../content/content-fields.js';
import { addFeedItem, moveFeedItems } from '../content/feed-items.js';
import { gameInBody } from '../content/game-refs.js';
import { conflict, forbidden } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { refuseJourneyTimes } from './journal-rules.js';
import { asSent, Journey } from './models.js';
import { journeyNotFound, ownJourney } from './journey-reads.js';
import { JOURNEYS_PER_ACCOUNT, type JourneyRow } from './rows.js';

export interface JourneyInput {
  game_id: number;
  title: string;
  started_at: string;
  finished_at?: string | null;
  visibility?: ContentVisibility;
}

export type JourneyChanges = Partial<JourneyInput>;

export async function createJourney(knex: Knex, ownerId: string, input: JourneyInput): Promise<JourneyRow> {
  await gameInBody(knex, input.game_id);
  const finishedAt = input.finished_at ?? null;
  refuseJourneyTimes({ started_at: input.started_at, finished_at: finishedAt });
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`journeys:${ownerId}`]);
    const count = await Journey.query(trx).where({ account_id: ownerId }).resultSize();
    if (count >= JOURNEYS_PER_ACCOUNT) {
      throw conflict(
        'journeys_full',
        { limit: JOURNEYS_PER_ACCOUNT, count },
        `An account holds at most ${JOURNEYS_PER_ACCOUNT} journeys.`,
      );
    }
    const { id } = await Journey.query(trx)
      .insert(
        asSent<Journey>({
          account_id: ownerId,
          game_id: input.game_id,
          title: input.title,
          started_at: input.started_at,
          finished_at: finishedAt,
          visibility: input.visibility ?? 'PUBLIC',
        }),
      )
      .returning('id');
    await addFeedItem(trx, { accountId: ownerId, kind: 'journey', subjectId: id, gameId: input.game_id });
    return ownJourney(trx, ownerId, id);
  });
}

/** Only the fields sent change; the times are judged again on the journey they make. */
export async function updateJourney(
  knex: Knex,
  ownerId: string,
  id: string,
  changes: JourneyChanges,
): Promise<JourneyRow> {
  if (!isUuid(id)) throw journeyNotFound();
  // A game the catalog lost stays on its journeys: only a game sent is looked up.
  if (changes.game_id !== undefined) await gameInBody(knex, changes.game_id);
  return knex.transaction(async (trx) => {
    const row = await Journey.query(trx)
      .select('game_id', 'started_at', 'finished_at', 'removed_at')
      .findOne({ id, account_id: ownerId })
      .forUpdate();
    if (!row) throw journeyNotFound();
    if (row.removed_at !== null)
      throw forbidden('removed', {}, 'Moderation removed this journey: it cannot be changed.');
    const blame = changes.finished_at === undefined && changes.started_at !== undefined ? 'started_at' : 'finished_at';
    refuseJourneyTimes(
      {
        started_at: changes.started_at ?? row.started_at,
        finished_at: changes.finished_at !== undefined ? changes.finished_at : row.finished_at,
      },
      blame,
    );
    if (Object.keys(changes).length > 0) {
      await Journey.query(trx).findById(id).patch(asSent<Journey>(changes));
    }
    if (changes.game_id !== undefined && changes.game_id !== row.game_id) {
      await moveFeedItems(trx, 'journey', id, changes.game_id);
    }
    return ownJourney(trx, ownerId, id);
  });
}

export async function deleteJourney(knex: Knex, ownerId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw journeyNotFound();
  const deleted = await Journey.query(knex).where({ id, account_id: ownerId }).delete();
  if (deleted === 0) throw journeyNotFound();
}

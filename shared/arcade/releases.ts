// Releases of a game (spec: Release; POST/PUT/GET .../releases, withdraw). A release is edited only while
// a draft; its number counts up per game. Checks, submit and live are in release-moves.ts.
import type { Knex } from 'knex';
import { conflict, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { lockOpenGame, recordEvent } from './games.js';
import type { ArcadeApp, ReleaseInput, ReleaseRow } from './rows.js';
import { ArcadeRelease } from './models.js';

export function releaseNotFound() {
  return notFound('This game has no release with this id.', 'release_not_found');
}

export function releaseLocked() {
  return conflict('release_locked', {}, 'Only a draft release can be changed; submit a new release instead.');
}

function columns(input: ReleaseInput) {
  return {
    entry_url: input.entry_url,
    entry_origin: input.entry_origin,
    capabilities: input.capabilities,
    scopes: input.scopes,
    orientation: input.orientation,
    platforms: input.platforms,
    third_parties: input.third_parties,
    data_events_url: input.data_events_url,
    notes: input.notes,
  };
}

export async function findRelease(
  knex: Knex | Knex.Transaction,
  appId: string,
  releaseId: string,
  lock = false,
): Promise<ReleaseRow> {
  if (!isUuid(releaseId)) throw releaseNotFound();
  const query = ArcadeRelease.query(knex).findOne({ app_id: appId, id: releaseId });
  if (lock) query.forUpdate();
  const release = await query;
  if (!release) throw releaseNotFound();
  return release;
}

export async function createRelease(knex: Knex, game: ArcadeApp, input: ReleaseInput): Promise<ReleaseRow> {
  return knex.transaction(async (trx) => {
    // The game's row orders the numbers (two creates cannot take the same one) and keeps out a removal.
    await lockOpenGame(trx, game.app_id);
    const { max } = await ArcadeRelease.query(trx)
      .where({ app_id: game.app_id })
      .max('number as max')
      .first()
      .castTo<{ max: number | null }>();
    const release = await ArcadeRelease.query(trx)
      .insert({ app_id: game.app_id, number: (max ?? 0) + 1, status: 'draft', ...columns(input) })
      .returning('*');
    await recordEvent(trx, game.app_id, 'release_created', { number: release.number });
    return release;
  });
}

export async function replaceRelease(
  knex: Knex,
  game: ArcadeApp,
  releaseId: string,
  input: ReleaseInput,
): Promise<ReleaseRow> {
  return knex.transaction(async (trx) => {
    await lockOpenGame(trx, game.app_id);
    const release = await findRelease(trx, game.app_id, releaseId, true);
    if (release.status !== 'draft') throw releaseLocked();
    const [replaced] = await ArcadeRelease.query(trx).where({ id: release.id }).patch(columns(input)).returning('*');
    return replaced;
  });
}

/** Takes a release out of the review queue (submitted or in review); anything else is 409. */
export async function withdrawRelease(knex: Knex, game: ArcadeApp, releaseId: string): Promise<ReleaseRow> {
  return knex.transaction(async (trx) => {
    await lockOpenGame(trx, game.app_id);
    const release = await findRelease(trx, game.app_id, releaseId, true);
    if (!['submitted', 'in_review'].includes(release.status)) {
      throw conflict('not_in_review', {}, 'Only a release waiting for review can be withdrawn.');
    }
    const [withdrawn] = await ArcadeRelease.query(trx)
      .where({ id: release.id })
      .patch({ status: 'withdrawn' })
      .returning('*');
    await recordEvent(trx, game.app_id, 'release_withdrawn', { number: release.number });
    return withdrawn;
  });
}

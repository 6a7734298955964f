// The owner's play sessions written (DECISIONS: Journal): created live (no end) or closed, changed, closed
// by setting `ended_at`, deleted. One live session per account is held by the partial unique index
// play_sessions_one_live: the check before the insert gives the usual answer, and the index's violation
// gives the same answer to parallel starts that all passed the check, so exactly one of them starts. A
// session is a feed item (kind `session`) from when it is closed; reopened, it leaves the feed until it is
// closed again. Its feed items and the comments on it go with it when it is deleted (a trigger).
import type { Knex } from 'knex';
import type { ContentVisibility } from '../content/content-fields.js';
import { fieldsInvalid } from '../content/content-rules.js';
import { addFeedItem, moveFeedItems } from '../content/feed-items.js';
import { ActivityItem } from '../content/models.js';
import { gameInBody } from '../content/game-refs.js';
import { registerConstraint } from '../platform/db/database-errors.js';
import { conflict, forbidden } from '../platform/errors.js';
import { isUuid } from '../platform/validation/uuid.js';
import { refuseSessionTimes, sessionMinutes } from './journal-rules.js';
import { asSent, PlaySession } from './models.js';
import type { SessionRow } from './rows.js';
import { ownSession, sessionNotFound } from './session-reads.js';

export interface SessionInput {
  game_id: number;
  started_at: string;
  ended_at?: string | null;
  note?: string;
  visibility?: ContentVisibility;
}

export type SessionChanges = Partial<SessionInput>;

const ONE_LIVE = 'play_sessions_one_live';

// The rules compare times in milliseconds; an end before its start by less than one (times sent to the
// microsecond) reaches the table's check, which answers as the rule does.
registerConstraint('play_sessions_closed', () => fieldsInvalid('ended_at', 'ended_at is before the start.'));

function isOneLiveViolation(error: unknown): boolean {
  const wrapped = error as { nativeError?: { code?: string; constraint?: string } } | undefined;
  const pg = (wrapped?.nativeError ?? error) as { code?: string; constraint?: string } | undefined;
  return pg?.code === '23505' && pg.constraint === ONE_LIVE;
}

async function liveSessionId(knex: Knex, ownerId: string, except?: string) {
  const query = PlaySession.query(knex).select('id').where({ account_id: ownerId }).whereNull('ended_at');
  if (except) query.whereNot({ id: except });
  return (await query.first())?.id;
}

const sessionRunning = (id: string) =>
  conflict('session_running', { id }, 'A session is running: close it (PATCH its ended_at) first.');

/**
 * Runs a write that may start a live session; a parallel start that won the index is answered as the
 * check before would have answered. Were that session closed in between, the write is tried again.
 */
async function holdingOneLive<T>(knex: Knex, ownerId: string, write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (!isOneLiveViolation(error)) throw error;
      const live = await liveSessionId(knex, ownerId);
      if (live) throw sessionRunning(live);
      if (attempt >= 2) throw error;
    }
  }
}

export async function createSession(knex: Knex, ownerId: string, input: SessionInput): Promise<SessionRow> {
  await gameInBody(knex, input.game_id);
  const endedAt = input.ended_at ?? null;
  refuseSessionTimes({ started_at: input.started_at, ended_at: endedAt });
  if (endedAt === null) {
    const live = await liveSessionId(knex, ownerId);
    if (live) throw sessionRunning(live);
  }
  return holdingOneLive(knex, ownerId, () =>
    knex.transaction(async (trx) => {
      const { id } = await PlaySession.query(trx)
        .insert(
          asSent<PlaySession>({
            account_id: ownerId,
            game_id: input.game_id,
            started_at: input.started_at,
            ended_at: endedAt,
            minutes: sessionMinutes(input.started_at, endedAt),
            note: input.note ?? '',
            visibility: input.visibility ?? 'PUBLIC',
          }),
        )
        .returning('id');
      if (endedAt !== null) {
        await addFeedItem(trx, { accountId: ownerId, kind: 'session', subjectId: id, gameId: input.game_id });
      }
      return ownSession(trx, ownerId, id);
    }),
  );
}

/** Only the fields sent change; every rule is judged again on the session they make. */
export async function updateSession(
  knex: Knex,
  ownerId: string,
  id: string,
  changes: SessionChanges,
): Promise<SessionRow> {
  if (!isUuid(id)) throw sessionNotFound();
  // A game the catalog lost stays on its sessions: only a game sent is looked up.
  if (changes.game_id !== undefined) await gameInBody(knex, changes.game_id);
  return holdingOneLive(knex, ownerId, () =>
    knex.transaction(async (trx) => {
      const row = await PlaySession.query(trx)
        .select('game_id', 'started_at', 'ended_at', 'removed_at')
        .findOne({ id, account_id: ownerId })
        .forUpdate();
      if (!row) throw sessionNotFound();
      if (row.removed_at !== null)
        throw forbidden('removed', {}, 'Moderation removed this session: it cannot be changed.');
      const startedAt = changes.started_at ?? row.started_at;
      const endedAt = changes.ended_at !== undefined ? changes.ended_at : row.ended_at;
      const gameId = changes.game_id ?? row.game_id;
      const blame = changes.ended_at === undefined && changes.started_at !== undefined ? 'started_at' : 'ended_at';
      refuseSessionTimes({ started_at: startedAt, ended_at: endedAt }, blame);
      const wasLive = row.ended_at === null;
      const isLive = endedAt === null;
      if (isLive && !wasLive) {
        const live = await liveSessionId(trx, ownerId, id);
        if (live) throw sessionRunning(live);
      }
      if (Object.keys(changes).length > 0) {
        await PlaySession.query(trx)
          .findById(id)
          .patch(asSent<PlaySession>({ ...changes, minutes: sessionMinutes(startedAt, endedAt) }));
      }
      if (wasLive && !isLive) {
        await addFeedItem(trx, { accountId: ownerId, kind: 'session', subjectId: id, gameId });
      } else if (!wasLive && isLive) {
        // Reopened: off the feed until it is closed again.
        await ActivityItem.query(trx).where({ kind: 'session', subject_id: id }).delete();
      } else if (gameId !== row.game_id) {
        await moveFeedItems(trx, 'session', id, gameId);
      }
      return ownSession(trx, ownerId, id);
    }),
  );
}

export async function deleteSession(knex: Knex, ownerId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw sessionNotFound();
  const deleted = await PlaySession.query(knex).where({ id, account_id: ownerId }).delete();
  if (deleted === 0) throw sessionNotFound();
}

// The shared feed (everyone's, not a person's or a game's) read one kind at a time. A filter that only some
// kinds can pass (`spoilers=spoilers`: reviews and captures; a rating: reviews and entries; `kinds`) made the
// one walk of the whole feed step over every item of the other kinds: 150 to 330 ms for a page of spoiler
// reviews or of kinds nobody posted. Each kind walks its own index instead, to the page's length, and the
// walks are merged.
//
// `q` finds what it names first: the games whose name holds it (trigram index) and, per kind with a text,
// the things whose text has its words (word indexes, migration feed_text_search), each up to a cap. When
// all of them are few, the page is read straight from them (the feed's game and subject indexes, then a
// sort): its cost follows the matches, not the feed. Past a cap (a word in many games or things) the
// matches are dense, and each kind walks its index testing each item, finding its page early.
import type { Knex } from 'knex';
import { queryPrepared } from '../platform/db/prepared.js';
import type { ActivityKind } from './activity-kinds.js';
import { likeContaining } from '../platform/db/like.js';

/** More games than this holding the word: its items are dense enough to walk to. */
const GAME_CAP = 1000;

/**
 * At most this many feed items about the matched games (by the catalog's counts) are read straight and
 * sorted. Reading one costs under a microsecond, a walk about 7 per item it passes, and a walk passes
 * `page x feed / matched` items: the two meet near sqrt(7 x page x feed), about 15,000 for a page of 30
 * over the benchmark's 1.3 million items. 2,500 x sqrt(page) keeps to that side; a word in 122 games
 * ("family", 3,142 items) went from a 120 ms walk for a page of 100 to a few ms.
 */
const directItems = (limit: number) => Math.round(2500 * Math.sqrt(limit));
/**
 * More things of one kind than this holding the word: walk that kind. Reading the matches costs about 20
 * microseconds each (a review's row and its text), walking about 7 per item passed, and a walk passes
 * `page / density` items: over 120,000 reviews the two meet near 1,000 matches for a page of 30 and 2,700
 * for 180, so the cap grows with the page.
 */
const textCap = (limit: number) => Math.min(3000, Math.max(500, 30 * limit));

/** Each kind's text as the words its index holds, of the row `alias` (null: no text of its own). */
const TEXTS: Record<ActivityKind, { table: string; words: (alias: string) => string } | null> = {
  review: { table: 'reviews', words: (alias) => `${alias}.words` },
  list: { table: 'lists', words: (alias) => `to_tsvector('simple', catalog_fold(${alias}.title))` },
  journey: { table: 'journeys', words: (alias) => `to_tsvector('simple', catalog_fold(${alias}.title))` },
  screenshot: { table: 'screenshots', words: (alias) => `to_tsvector('simple', catalog_fold(${alias}.description))` },
  entry: null,
  session: null,
};

/**
 * SQL: the words of the text bound at `param` as a query that each must begin a word of the thing: folded
 * as the things are, split on what is not a letter or digit (so nothing of the reader's reaches the query
 * syntax). No word at all matches nothing.
 */
const wordsQuery = (param: string) => `to_tsquery('simple', coalesce((SELECT string_agg(w || ':*', ' & ')
    FROM regexp_split_to_table(catalog_fold(${param}), '[^[:alnum:]]+') w WHERE w <> ''), ''))`;

/** What a `q` names: game ids and, per kind, thing ids; null where there were more than the cap. */
export interface TextMatches {
  games: number[] | null;
  things: Partial<Record<ActivityKind, string[] | null>>;
  /** Whether the page is read straight from the matches (all under their caps, few items). */
  direct: boolean;
}

/** The games and things holding `q`, for the kinds the page may show, in one round trip. */
export async function findTextMatches(
  knex: Knex,
  q: string,
  kinds: readonly ActivityKind[],
  limit: number,
): Promise<TextMatches> {
  const texts = kinds.filter((kind) => TEXTS[kind]);
  const cap = textCap(limit);
  const capped = (sql: string, cap: number) => `(SELECT array_agg(id) FROM (${sql} LIMIT ${cap + 1}) m)`;
  // The games' counts (kept by catalog.stats, minutes old at most) size their items: an estimate that
  // only chooses how to read, never what the page holds.
  const games = `SELECT id, library_count + review_count AS items FROM games WHERE name_folded LIKE catalog_fold($1)
    LIMIT ${GAME_CAP + 1}`;
  const columns = [
    `(SELECT array_agg(id) FROM (${games}) m) AS games`,
    `(SELECT sum(items) FROM (${games}) m)::int AS game_items`,
    ...texts.map(
      (kind) =>
        `${capped(`SELECT t.id FROM ${TEXTS[kind]!.table} t WHERE ${TEXTS[kind]!.words('t')} @@ ${wordsQuery('$2')}`, cap)} AS ${kind}`,
    ),
  ];
  const text = `SELECT ${columns.join(', ')}`;
  const name = `jogatina_feed_text_${cap}_${texts.join('_')}`;
  const values = texts.length ? [likeContaining(q), q] : [likeContaining(q)];
  const [row] = (await queryPrepared(knex, name, text, values)) as Array<Record<string, unknown[] | null>>;
  const within = <T>(ids: unknown[] | null, cap: number): T[] | null =>
    ids === null ? [] : ids.length > cap ? null : (ids as T[]);
  const things: TextMatches['things'] = {};
  for (const kind of texts) things[kind] = within<string>(row[kind], cap);
  const matchedGames = within<number>(row.games, GAME_CAP);
  const gameItems = Number(row.game_items ?? 0);
  const direct =
    matchedGames !== null && gameItems <= directItems(limit) && texts.every((kind) => things[kind] !== null);
  return { games: matchedGames, things, direct };
}

/**
 * SQL: the item `x`'s game is named by the text bound at :like, a lookup per item the walk passes (OFFSET 0
 * keeps it one: without it PostgreSQL hashed every match of the whole table first, 120 ms for a common word).
 */
const GAME_NAMED = `EXISTS (SELECT 1 FROM games gm WHERE gm.id = x.game_id AND gm.name_folded LIKE catalog_fold(:like) OFFSET 0)`;

/**
 * SQL: the item `x` of `kind` holds the text, per item: its game's name holds the text bound at :like, or
 * its own text has the words bound at :words.
 */
export function textTestPerItem(kind: ActivityKind): string {
  const own = TEXTS[kind];
  if (!own) return GAME_NAMED;
  return `(${GAME_NAMED} OR EXISTS (SELECT 1 FROM ${own.table} tx WHERE tx.id = x.subject_id
      AND ${own.words('tx')} @@ ${wordsQuery(':words')} OFFSET 0))`;
}

/**
 * SQL: the item `x` of `kind` holds the text, by the matches found first when they are few enough to read
 * by index (binding their ids), else by the per-item test. `bindings` gains what the SQL names.
 */
export function textTest(kind: ActivityKind, matches: TextMatches, bindings: Record<string, Knex.Value>): string {
  const things = TEXTS[kind] ? matches.things[kind] : [];
  if (matches.games === null || things === null || things === undefined) return textTestPerItem(kind);
  bindings.text_games = matches.games as unknown as Knex.Value;
  const byGame = 'x.game_id = ANY(CAST(:text_games AS integer[]))';
  if (!TEXTS[kind]) return byGame;
  bindings[`text_${kind}`] = things as unknown as Knex.Value;
  return `(${byGame} OR x.subject_id = ANY(CAST(:text_${kind} AS uuid[])))`;
}

/**
 * SQL: the item `x` is one of the matches, in a form the feed's game and subject indexes answer (a bitmap of
 * both): the page read straight from the matches tests this first, then each kind's own test.
 */
export function amongMatches(matches: TextMatches, bindings: Record<string, Knex.Value>): string {
  bindings.text_games = (matches.games ?? []) as unknown as Knex.Value;
  bindings.text_things = Object.values(matches.things).flatMap((ids) => ids ?? []) as unknown as Knex.Value;
  return '(x.game_id = ANY(CAST(:text_games AS integer[])) OR x.subject_id = ANY(CAST(:text_things AS uuid[])))';
}

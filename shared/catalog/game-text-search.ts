// The text part of GET /games (`q`). The text matches the folded name (lower case, accents removed):
// exact, prefix and word-prefix matches rank before matches inside a word, then the chosen sort. A word no
// title holds is corrected from the words titles use (title-words.ts); when nothing contains the text,
// names holding each of its words, in any order. A text in more names than COMMON_TEXT, or too short for
// a trigram, ranks the name that is exactly the text first and every other match by popularity: sorting
// tens of thousands of matches by rank cost 100 to 300 ms, and for a fragment that common popularity is
// the better guide anyway.
import type { Knex } from 'knex';
import { escapeLike, likeContaining } from '../platform/db/like.js';
import { pageWindow } from '../platform/paging/paging.js';
import {
  findPage,
  GAME_COLUMNS,
  GAME_PAGE,
  TOTAL_CAP,
  type Found,
  type Order,
  type Plan,
  type Where,
} from './game-pages.js';
import { checkTextWords, correctedNames, correctedWords, SHORTEST_INDEXED, type SearchText } from './title-words.js';

/** Names a text may be in (by its title words' counts) before it ranks by popularity (see the top). */
export const COMMON_TEXT = 3000;
const POPULAR = 'g.popularity DESC NULLS LAST, g.id';

export interface TextSearch {
  text: string;
  /** The order asked for; none ranks by how the name matches. */
  sort: Order | null;
  page: number;
  cacheTotal: boolean;
}

export async function searchText(knex: Knex, where: Where, search: TextSearch): Promise<Found> {
  const checked = await checkTextWords(knex, search.text);
  const { folded, words } = checked;
  const window = pageWindow(search.page, GAME_PAGE);
  const ordered = (rank: Order) => search.sort ?? { sql: `${rank.sql}, ${POPULAR}`, bindings: rank.bindings };
  const plan: Plan = search.sort ? orderedTextPlan(checked, where, search.page) : 'sortsEveryMatch';
  if (words.length === 0) {
    // No letter or digit ("!!!", "%"): no index can find it inside a name (a search read every name), so
    // it finds the games named exactly that.
    const named = { sql: ['g.name_folded = ?'], bindings: [folded] };
    return findPage(knex, where, named, search.sort ?? { sql: POPULAR, bindings: [] }, window, search.cacheTotal);
  }
  // A word no title holds cannot be inside a name: the text as typed is searched only when every word is.
  if (words.every((word) => word.known)) {
    const escaped = escapeLike(folded);
    // Text too short for a trigram matches the start of a word, which the index can find; "inside a
    // word" would read every name.
    const contains: Where =
      folded.length >= SHORTEST_INDEXED
        ? { sql: ['g.name_folded LIKE ?'], bindings: [`%${escaped}%`] }
        : { sql: ['(g.name_folded LIKE ? OR g.name_folded LIKE ?)'], bindings: [`${escaped}%`, `% ${escaped}%`] };
    const found =
      !search.sort && isCommon(folded, checked.names)
        ? await commonTextPage(knex, where, contains, folded, window, search.cacheTotal)
        : await findPage(knex, where, contains, ordered(textRank(folded)), window, search.cacheTotal, plan);
    if (found.total > 0) return found;
  }
  const corrected = correctedWords(words);
  const unchanged = corrected.length === 1 && corrected[0] === words[0].word;
  if (corrected.length === 0 || unchanged) return { rows: [], total: 0 };
  // Nothing contains the text: names holding every word, in any order, each corrected when no title has
  // it; names holding the corrected words together rank first.
  const phrase = corrected.join(' ');
  const every = { sql: corrected.map(() => 'g.name_folded LIKE ?'), bindings: corrected.map(likeContaining) };
  if (!search.sort && isCommon(phrase, correctedNames(words))) {
    return commonTextPage(knex, where, every, phrase, window, search.cacheTotal);
  }
  return findPage(knex, where, every, ordered(textRank(phrase, true)), window, search.cacheTotal, plan);
}

/** Common enough to rank by popularity: in many names by its words' counts, or too short to count. */
export function isCommon(folded: string, names: number | null): boolean {
  return folded.length < SHORTEST_INDEXED || (names ?? 0) > COMMON_TEXT;
}

/**
 * A common text in its default order: the games named exactly the text (an equality lookup), then every
 * other match by popularity, walked along the popularity index (which holds the folded name, so the walk
 * reads no row it does not show; see the catalog_covering_all_games migration).
 */
async function commonTextPage(
  knex: Knex,
  where: Where,
  contains: Where,
  folded: string,
  window: { limit: number; offset: number },
  cacheTotal: boolean,
): Promise<Found> {
  const clause = ['g.name_folded = ?', ...where.sql].join(' AND ');
  const { rows: exact } = await knex.raw<{ rows: Found['rows'] }>(
    `SELECT ${GAME_COLUMNS} FROM games g WHERE ${clause} ORDER BY ${POPULAR}`,
    [folded, ...where.bindings],
  );
  const first = exact.slice(window.offset, window.offset + window.limit);
  const others = { sql: [...contains.sql, 'g.name_folded <> ?'], bindings: [...contains.bindings, folded] };
  const rest = await findPage(
    knex,
    where,
    others,
    { sql: POPULAR, bindings: [] },
    { offset: Math.max(0, window.offset - exact.length), limit: window.limit - first.length },
    cacheTotal,
    'walk',
  );
  return { rows: [...first, ...rest.rows], total: Math.min(TOTAL_CAP, exact.length + rest.total) };
}

/**
 * A text in an order of its own. Walking the order's index reads about (offset + 24) x games / matches
 * rows; reading the matches first reads the matches. The planner cannot tell "%fuyu%" (71 names) from
 * "%sto%" (9,000), so the title words' counts decide: a walk only for a common text, a shallow page and no
 * other filter (a filter thins the matches out along the walk by a share no count here knows).
 */
export function orderedTextPlan(text: SearchText, where: Where, page: number): Plan {
  const { limit, offset } = pageWindow(page, GAME_PAGE);
  const names = text.names;
  // Too short for a trigram: in a large share of all names, so a walk finds a page soon.
  if (text.folded.length < SHORTEST_INDEXED) return 'walk';
  if (names === null || where.sql.length > 0 || names === 0) return 'matchesFirst';
  // A walk reads rows through the table in the order's sequence, a few times dearer each than the name
  // index's bitmap: hence the factor of 4.
  return (offset + limit) * text.games * 4 < names * names ? 'walk' : 'matchesFirst';
}

/**
 * Rank 0: the name is the text; 1: it starts with it; 2: a word of it does; then (when `inside` is asked,
 * for matches that need not hold the text) 3: the text is inside the name; last, the rest.
 */
function textRank(text: string, inside = false): Order {
  const escaped = escapeLike(text);
  return {
    sql: `CASE WHEN g.name_folded = ? THEN 0 WHEN g.name_folded LIKE ? THEN 1
      WHEN g.name_folded LIKE ? THEN 2 ${inside ? 'WHEN g.name_folded LIKE ? THEN 3' : ''} ELSE 4 END`,
    bindings: [text, `${escaped}%`, `% ${escaped}%`, ...(inside ? [`%${escaped}%`] : [])],
  };
}

// The text of GET /games (`q`) answered from the catalog's copy, with the rules game-text-search.ts
// gives the database: the folded name holds the text (inside a word too); without a sort, the name that is
// the text, then names starting with it, then names with a word starting with it, then the rest, each by
// popularity; a common text (in more than COMMON_TEXT names by its words' counts, or too short for a
// trigram) the names that are the text first and every other match by popularity. A text in no name
// looks for names holding every word, each corrected to the nearest title word when no title holds it.
// Words, their games and corrections come from the copy's title index (copy-text-index.ts), so a text
// costs a few postings and, for a phrase, a check of the rarest word's names, never a read of every name.
import { isCommon } from './game-text-search.js';
import {
  CORRECTION_THRESHOLD,
  correctedNames,
  correctedWords,
  rarest,
  SHORTEST_INDEXED,
  type TextWord,
} from './title-words.js';
import {
  gamesNamed,
  gamesOfWord,
  nameOf,
  nearestWord,
  WORD_SPLIT,
  wordOf,
  wordsHolding,
  wordsEndingWith,
  wordsStartingWith,
  type TitleIndex,
} from './copy-text-index.js';
import type { CatalogSnapshot } from './copy-indexes.js';
import type { Filter } from './copy-filters.js';
import { matching, passesAll, slicePage, walk, type CopyPage, type Window } from './copy-walk.js';
import type { GameSort } from './search-parameters.js';
import { marksOf } from './copy-marks.js';

/** A text's words checked against the title words, with the title words holding each (for its games). */
interface Checked {
  words: TextWord[];
  /** The title words holding each word of three characters or more, and each correction. */
  holding: Map<string, number[]>;
}

/** The words of a folded text checked against the title words, as checkTextWords does in the database. */
export function checkWords(titles: TitleIndex, folded: string): Checked {
  const holding = new Map<string, number[]>();
  const held = (word: string) => {
    if (!holding.has(word)) holding.set(word, wordsHolding(titles, word));
    return holding.get(word)!;
  };
  const words = folded
    .split(WORD_SPLIT)
    .filter((word) => word !== '')
    .map((word): TextWord => {
      if (word.length < SHORTEST_INDEXED) return { word, known: true, nearest: null, nearestNames: null, names: null };
      const names = held(word).reduce((sum, w) => sum + gamesOfWord(titles, w), 0);
      if (names > 0) return { word, known: true, nearest: null, nearestNames: null, names };
      const nearest = nearestWord(titles, word, CORRECTION_THRESHOLD, SHORTEST_INDEXED);
      if (nearest === null) return { word, known: false, nearest: null, nearestNames: null, names: 0 };
      held(wordOf(titles, nearest));
      return {
        word,
        known: false,
        nearest: wordOf(titles, nearest),
        nearestNames: gamesOfWord(titles, nearest),
        names: 0,
      };
    });
  return { words, holding };
}

/**
 * The games of the title words `words`, each once (ascending for one word, in no order for several);
 * with `spaced`, only where the word starts the name or follows a space.
 */
function gamesOfWords(copy: CatalogSnapshot, words: number[], spaced = false): Int32Array {
  const { titles } = copy;
  const [wordGames, wordGameStarts] = spaced
    ? [titles.spacedGames, titles.spacedGameStarts]
    : [titles.wordGames, titles.wordGameStarts];
  if (words.length === 1) return wordGames.subarray(wordGameStarts[words[0]], wordGameStarts[words[0] + 1]);
  const seen = marksOf(copy);
  const games = new Int32Array(words.reduce((n, w) => n + wordGameStarts[w + 1] - wordGameStarts[w], 0));
  let count = 0;
  for (const w of words) {
    for (let k = wordGameStarts[w]; k < wordGameStarts[w + 1]; k += 1) {
      const game = wordGames[k];
      if (seen[game] === 1) continue;
      seen[game] = 1;
      games[count++] = game;
    }
  }
  return games.subarray(0, count);
}

/**
 * The games whose name holds every one of `fragments`, found through the rarest of `words` (by the
 * games of the title words holding it) and checked whole.
 */
function holdingAll(copy: CatalogSnapshot, checked: Checked, words: string[], fragments: string[]): Int32Array {
  const titles = copy.titles;
  const size = (word: string) => checked.holding.get(word)!.reduce((sum, w) => sum + gamesOfWord(titles, w), 0);
  const long = words.filter((word) => word.length >= SHORTEST_INDEXED);
  if (long.length === 0) return holdingText(copy, words, fragments);
  const rarest = long.reduce((a, b) => (size(b) < size(a) ? b : a));
  const candidates = gamesOfWords(copy, checked.holding.get(rarest)!);
  // A single word is held by exactly the games of the title words holding it.
  if (fragments.length === 1 && fragments[0] === rarest) return candidates;
  const found = new Int32Array(candidates.length);
  let count = 0;
  for (let k = 0; k < candidates.length; k += 1) {
    const name = nameOf(titles, candidates[k]);
    if (fragments.every((fragment) => name.includes(fragment))) found[count++] = candidates[k];
  }
  return found.subarray(0, count);
}

/**
 * The games holding a text of short words only ("ff 7", "ab!"): a word after a character that is no letter
 * or digit starts a word of the name, so the title words starting with it find them; a text whose only
 * word comes first ends a word of the name with it, so the title words ending with it do.
 */
function holdingText(copy: CatalogSnapshot, words: string[], fragments: string[]): Int32Array {
  const titles = copy.titles;
  const text = fragments[0];
  const afterSeparator = WORD_SPLIT.test(text.charAt(0)) ? words[0] : words[1];
  const found: number[] = [];
  const titleWords =
    afterSeparator !== undefined ? wordsStartingWith(titles, afterSeparator) : wordsEndingWith(titles, words[0]);
  const games = gamesOfWords(copy, titleWords);
  for (let k = 0; k < games.length; k += 1) if (nameOf(titles, games[k]).includes(text)) found.push(games[k]);
  return Int32Array.from(found);
}

/** The text's matches as a filter: a mark per game, and the matches as its candidates. */
function matchFilter(copy: CatalogSnapshot, games: Int32Array): Filter {
  const marks = marksOf(copy);
  for (let k = 0; k < games.length; k += 1) marks[games[k]] = 1;
  return { test: (game) => marks[game] === 1, candidates: [games], exact: true };
}

/** Without a sort: names that are `text` first, then every other match by popularity. */
function namedFirst(copy: CatalogSnapshot, filters: Filter[], text: string, window: Window): CopyPage {
  const passes = passesAll(filters);
  const popular = copy.index.ranks.popular;
  const named = [...gamesNamed(copy.titles, text)].filter(passes).sort((a, b) => popular[a] - popular[b]);
  const first = slicePage(copy, named, window);
  // Few games share a name: a look through them is quicker than a set.
  const others: Filter[] =
    named.length === 0 ? [] : [{ test: named.length > 8 ? notIn(new Set(named)) : (game) => !named.includes(game) }];
  const rest = walk(copy, [...filters, ...others], 'popular', {
    offset: Math.max(0, window.offset - named.length),
    limit: window.limit - first.length,
  });
  return { ids: [...first, ...rest.ids], total: named.length + rest.total };
}

const notIn = (set: Set<number>) => (game: number) => !set.has(game);

/** How a match ranks by how its name holds the text, in `textRank`'s order (game-text-search.ts). */
const EXACT = 0;
const START = 1;
const WORD_START = 2;
const INSIDE = 3;
const ELSEWHERE = 4;

/**
 * Without a sort, for a rare text: by how the name holds `text` (textRank in game-text-search.ts: the
 * name, its start, a word's start, with `inside` anywhere, else the rest), then by popularity. Only a
 * name with a title word starting as the text starts, at the name's start or after a space, can rank in
 * the first three, so only those names are read; the rest rank by whether they hold the text (known for
 * every match when `holdsText`).
 */
function ranked(
  copy: CatalogSnapshot,
  filters: Filter[],
  text: string,
  inside: boolean,
  holdsText: boolean,
  window: Window,
): CopyPage {
  const titles = copy.titles;
  const found = matching(copy, filters);
  // Each match's rank from INSIDE on, once the first three are taken out (marked OUT).
  const rest = marksOf(copy);
  const restRank = inside ? INSIDE : ELSEWHERE;
  for (let k = 0; k < found.length; k += 1) rest[found[k]] = restRank;
  const head = WORD_SPLIT.test(text.charAt(0)) ? null : text.split(WORD_SPLIT)[0];
  const early = head === null ? found : gamesOfWords(copy, wordsStartingWith(titles, head), true);
  const first: number[][] = [[], [], []];
  for (let k = 0; k < early.length; k += 1) {
    const game = early[k];
    if (rest[game] === OUT || rest[game] === 0) continue;
    const name = nameOf(titles, game);
    const rank = name === text ? EXACT : name.startsWith(text) ? START : name.includes(` ${text}`) ? WORD_START : -1;
    if (rank < 0) continue;
    first[rank].push(game);
    rest[game] = OUT;
  }
  const sizes = [0, 0];
  for (let k = 0; k < found.length; k += 1) {
    const game = found[k];
    if (rest[game] === OUT) continue;
    // Every match holds each word; whether it holds them together is read only when it is not known.
    if (inside && !holdsText && !nameOf(titles, game).includes(text)) rest[game] = ELSEWHERE;
    sizes[rest[game] - INSIDE] += 1;
  }
  const ids: number[] = [];
  let skip = window.offset;
  const take = (size: number, page: (skip: number, take: number) => number[]) => {
    const count = Math.min(window.limit - ids.length, size - skip);
    if (count > 0) ids.push(...page(skip, count));
    skip = Math.max(0, skip - size);
  };
  for (const games of first) take(games.length, (from, count) => topByPopularity(copy, games, from, count));
  for (const rank of [INSIDE, ELSEWHERE]) {
    take(sizes[rank - INSIDE], (from, count) => popularMarked(copy, rest, rank, from, count));
  }
  return { ids, total: found.length };
}

/** Marks a match taken into the first three ranks. */
const OUT = 255;

/** The ids of the games marked `mark`, from `skip` on, `take` of them, walking the order of popularity. */
function popularMarked(copy: CatalogSnapshot, marks: Uint8Array, mark: number, skip: number, take: number): number[] {
  const order = copy.orders.popular;
  const ids: number[] = [];
  for (let k = 0, counted = 0; k < order.length && counted < skip + take; k += 1) {
    if (marks[order[k]] !== mark) continue;
    if (counted >= skip) ids.push(copy.ids[order[k]]);
    counted += 1;
  }
  return ids;
}

/** The ids of `games` from `skip` on, `take` of them, by popularity. */
function topByPopularity(copy: CatalogSnapshot, games: number[], skip: number, take: number): number[] {
  const popular = copy.index.ranks.popular;
  if (games.length <= 1024) {
    const sorted = Int32Array.from(games).sort((a, b) => popular[a] - popular[b]);
    return slicePage(copy, sorted, { offset: skip, limit: take });
  }
  // Many: marked, and taken walking the order of popularity.
  const marks = marksOf(copy);
  for (const game of games) marks[game] = 1;
  return popularMarked(copy, marks, 1, skip, take);
}

/** A page of games holding `text` (or every word of it), in `sort` or by the text's own ranking. */
function textPage(
  copy: CatalogSnapshot,
  filters: Filter[],
  matches: Int32Array,
  text: string,
  common: boolean,
  inside: boolean,
  holdsText: boolean,
  sort: GameSort | undefined,
  window: Window,
): CopyPage {
  const all = [...filters, matchFilter(copy, matches)];
  if (sort) return walk(copy, all, sort, window);
  return common ? namedFirst(copy, all, text, window) : ranked(copy, all, text, inside, holdsText, window);
}

/**
 * A page for a folded text of at least one letter or digit, or of none (the games named exactly that),
 * over `filters` (every filter of the search but the text). `shortText` gives the games of a text too short
 * for a trigram (copy-filters.ts), matched at the start of a word as the database matches it.
 */
export function searchCopyText(
  copy: CatalogSnapshot,
  filters: Filter[],
  folded: string,
  sort: GameSort | undefined,
  window: Window,
  shortText: (folded: string) => Int32Array,
): CopyPage {
  const checked = checkWords(copy.titles, folded);
  const { words } = checked;
  if (words.length === 0) {
    const named = [...gamesNamed(copy.titles, folded)].sort((a, b) => a - b);
    return walk(copy, [...filters, matchFilter(copy, Int32Array.from(named))], sort ?? 'popular', window);
  }
  if (words.every((word) => word.known)) {
    const typed = words.map((word) => word.word);
    const matches = folded.length < SHORTEST_INDEXED ? shortText(folded) : holdingAll(copy, checked, typed, [folded]);
    const common = isCommon(folded, rarest(words.map((word) => word.names)));
    const found = textPage(copy, filters, matches, folded, common, false, true, sort, window);
    if (found.total > 0) return found;
  }
  const corrected = correctedWords(words);
  const unchanged = corrected.length === 1 && corrected[0] === words[0].word;
  if (corrected.length === 0 || unchanged) return { ids: [], total: 0 };
  const phrase = corrected.join(' ');
  const matches = holdingAll(copy, checked, corrected, corrected);
  const common = isCommon(phrase, correctedNames(words));
  // Every match holds each corrected word; one word alone is the phrase itself.
  return textPage(copy, filters, matches, phrase, common, true, corrected.length === 1, sort, window);
}

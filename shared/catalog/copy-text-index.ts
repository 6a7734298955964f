// The words of the catalog's names, in the copy (copy-text.ts searches with it): the distinct title words
// (runs of letters and digits of the folded names, as catalog_title_words keeps them in the database),
// each with the games whose name holds it, and the words' trigrams, which find the words holding a
// fragment ("sto" is inside "aristocrat") and the word nearest a misspelt one, by pg_trgm's similarity.
// Everything is a typed array or one string, so a worker thread builds it and hands it over without a copy.
//
// 300,000 games have 25,000 title words and 1.75 million postings: 7 MB of postings and trigrams, beside
// the folded names themselves (one string of 8 MB).

/** Separates the folded names in `names` (U+001E, as the database sends them: no name holds it). */
const NAME_SEPARATOR = '\x1e';
/** The split of a folded text into words: the database's `[^[:alnum:]]+`. */
export const WORD_SPLIT = /[^\p{L}\p{N}]+/u;
/** A word: a run of letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu;
const SPACE = 32;

export interface TitleIndex {
  /** Every game's folded name, in the copy's order, each followed by NAME_SEPARATOR. */
  names: string;
  /** Where game i's name starts in `names` (size + 1 entries; the last is the string's length). */
  nameStarts: Int32Array;
  /** The title words, sorted by UTF-16 code units and joined, each followed by a space. */
  words: string;
  wordOffsets: Int32Array;
  /** Word w's games are `wordGames[wordGameStarts[w] .. wordGameStarts[w + 1]]`, ascending. */
  wordGames: Int32Array;
  wordGameStarts: Int32Array;
  /**
   * The same for the games where word w starts the name or follows a space (`LIKE 'w%'` or `'% w%'`): only
   * those can rank a text starting with it among the first (copy-text.ts `ranked`).
   */
  spacedGames: Int32Array;
  spacedGameStarts: Int32Array;
  /** How many distinct trigrams each word has, padded as pg_trgm pads it (for similarity). */
  wordTrigramCounts: Int32Array;
  /** The distinct trigrams (as numbers, trigramKey), ascending, and for each the words holding it. */
  trigramKeys: Float64Array;
  trigramWords: Int32Array;
  trigramWordStarts: Int32Array;
  /** The games in the order of their folded names (by UTF-16 code units), to find those named a text. */
  byName: Int32Array;
}

/** Three UTF-16 code units as one number (below 2^48, exact in a double). */
const trigramKey = (text: string, at: number) =>
  text.charCodeAt(at) * 4294967296 + text.charCodeAt(at + 1) * 65536 + text.charCodeAt(at + 2);

/** pg_trgm's trigrams of one word: padded with two spaces before and one after, each counted once. */
export function paddedTrigrams(word: string): number[] {
  const padded = `  ${word} `;
  const keys = new Set<number>();
  for (let at = 0; at + 3 <= padded.length; at += 1) keys.add(trigramKey(padded, at));
  return [...keys];
}

/** The trigrams inside a fragment (no padding): a word holds the fragment only if it holds each of them. */
function innerTrigrams(fragment: string): number[] {
  const keys = new Set<number>();
  for (let at = 0; at + 3 <= fragment.length; at += 1) keys.add(trigramKey(fragment, at));
  return [...keys];
}

/** Lists gathered per key, laid out flat: the keys' lists one after another, and where each starts. */
function flatten(lists: number[][]): { items: Int32Array; starts: Int32Array } {
  const starts = new Int32Array(lists.length + 1);
  for (let k = 0; k < lists.length; k += 1) starts[k + 1] = starts[k] + lists[k].length;
  const items = new Int32Array(starts[lists.length]);
  for (let k = 0; k < lists.length; k += 1) items.set(lists[k], starts[k]);
  return { items, starts };
}

/** Builds the index from the names as the database sends them (folded, joined by NAME_SEPARATOR). */
export function buildTitleIndex(joinedNames: string, size: number): TitleIndex {
  const names = size === 0 ? '' : joinedNames + NAME_SEPARATOR;
  const nameStarts = new Int32Array(size + 1);
  const gamesOf = new Map<string, number[]>();
  const spacedOf = new Map<string, number[]>();
  const add = (of: Map<string, number[]>, word: string, game: number) => {
    const games = of.get(word);
    if (!games) of.set(word, [game]);
    else if (games[games.length - 1] !== game) games.push(game);
  };
  const list: string[] = new Array(size);
  let start = 0;
  for (let game = 0; game < size; game += 1) {
    const end = names.indexOf(NAME_SEPARATOR, start);
    nameStarts[game] = start;
    const name = (list[game] = names.slice(start, end));
    for (const found of name.matchAll(WORD)) {
      add(gamesOf, found[0], game);
      if (found.index === 0 || name.charCodeAt(found.index - 1) === SPACE) add(spacedOf, found[0], game);
    }
    start = end + 1;
  }
  nameStarts[size] = names.length;
  if (size > 0 && start !== names.length) throw new Error('catalog copy: the names do not match the games read');
  const sorted = [...gamesOf.keys()].sort(byCodeUnits);
  const wordOffsets = new Int32Array(sorted.length + 1);
  sorted.forEach((word, w) => (wordOffsets[w + 1] = wordOffsets[w] + word.length + 1));
  const postings = flatten(sorted.map((word) => gamesOf.get(word)!));
  const spaced = flatten(sorted.map((word) => spacedOf.get(word) ?? []));
  const byTrigram = new Map<number, number[]>();
  const wordTrigramCounts = new Int32Array(sorted.length);
  sorted.forEach((word, w) => {
    const keys = paddedTrigrams(word);
    wordTrigramCounts[w] = keys.length;
    for (const key of keys) {
      const holders = byTrigram.get(key);
      if (holders) holders.push(w);
      else byTrigram.set(key, [w]);
    }
  });
  const trigramKeys = Float64Array.from(byTrigram.keys()).sort();
  const trigrams = flatten([...trigramKeys].map((key) => byTrigram.get(key)!));
  return {
    names,
    nameStarts,
    words: sorted.map((word) => `${word} `).join(''),
    wordOffsets,
    wordGames: postings.items,
    wordGameStarts: postings.starts,
    spacedGames: spaced.items,
    spacedGameStarts: spaced.starts,
    wordTrigramCounts,
    trigramKeys,
    trigramWords: trigrams.items,
    trigramWordStarts: trigrams.starts,
    byName: Int32Array.from(list.keys()).sort((a, b) => byCodeUnits(list[a], list[b]) || a - b),
  };
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Game i's folded name. */
export const nameOf = (index: TitleIndex, game: number) =>
  index.names.slice(index.nameStarts[game], index.nameStarts[game + 1] - 1);

/** The games named exactly `name` (folded), in the copy's order. */
export function gamesNamed(index: TitleIndex, name: string): Int32Array {
  const order = index.byName;
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (nameOf(index, order[middle]) < name) low = middle + 1;
    else high = middle;
  }
  let end = low;
  while (end < order.length && nameOf(index, order[end]) === name) end += 1;
  return order.subarray(low, end);
}

/** Title word w. */
export const wordOf = (index: TitleIndex, w: number) =>
  index.words.slice(index.wordOffsets[w], index.wordOffsets[w + 1] - 1);

/** How many games hold title word w. */
export const gamesOfWord = (index: TitleIndex, w: number) => index.wordGameStarts[w + 1] - index.wordGameStarts[w];

/** The words holding a trigram, or none. */
function wordsWithTrigram(index: TitleIndex, key: number): Int32Array {
  const keys = index.trigramKeys;
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (keys[middle] < key) low = middle + 1;
    else if (keys[middle] > key) high = middle - 1;
    else return index.trigramWords.subarray(index.trigramWordStarts[middle], index.trigramWordStarts[middle + 1]);
  }
  return NONE;
}

const NONE = new Int32Array(0);

/**
 * The title words holding `fragment` (of at least three characters): the words holding its rarest
 * trigram, checked whole.
 */
export function wordsHolding(index: TitleIndex, fragment: string): number[] {
  let fewest: Int32Array | null = null;
  for (const key of innerTrigrams(fragment)) {
    const holders = wordsWithTrigram(index, key);
    if (fewest === null || holders.length < fewest.length) fewest = holders;
    if (holders.length === 0) return [];
  }
  const found: number[] = [];
  for (const w of fewest ?? NONE) if (wordOf(index, w).includes(fragment)) found.push(w);
  return found;
}

/** The title words starting with `prefix`, by a binary search of the sorted words. */
export function wordsStartingWith(index: TitleIndex, prefix: string): number[] {
  const count = index.wordOffsets.length - 1;
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (wordOf(index, middle) < prefix) low = middle + 1;
    else high = middle;
  }
  const found: number[] = [];
  for (let w = low; w < count && wordOf(index, w).startsWith(prefix); w += 1) found.push(w);
  return found;
}

/** The title words ending with `suffix`, by a look at every word (a rare need: "ab!"). */
export function wordsEndingWith(index: TitleIndex, suffix: string): number[] {
  const found: number[] = [];
  for (let w = 0; w < index.wordOffsets.length - 1; w += 1) if (wordOf(index, w).endsWith(suffix)) found.push(w);
  return found;
}

/**
 * The title word most similar to `word` by pg_trgm's similarity (shared trigrams over all trigrams, as a
 * `real`), at least `threshold` and of at least `shortest` characters; ties go to the first word in order.
 * The database answers the same from catalog_title_words (title-words.ts).
 */
export function nearestWord(index: TitleIndex, word: string, threshold: number, shortest: number): number | null {
  const keys = paddedTrigrams(word);
  const shared = new Map<number, number>();
  for (const key of keys) {
    for (const w of wordsWithTrigram(index, key)) shared.set(w, (shared.get(w) ?? 0) + 1);
  }
  let best: number | null = null;
  let bestSimilarity = -1;
  for (const [w, common] of shared) {
    if (index.wordOffsets[w + 1] - index.wordOffsets[w] - 1 < shortest) continue;
    const similarity = Math.fround(common / (keys.length + index.wordTrigramCounts[w] - common));
    if (similarity < threshold) continue;
    if (similarity > bestSimilarity || (similarity === bestSimilarity && w < best!)) {
      best = w;
      bestSimilarity = similarity;
    }
  }
  return best;
}

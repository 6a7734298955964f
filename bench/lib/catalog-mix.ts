// The catalog's unseen mix: GET /games queries generated anew for every request, so no plan tuned for a
// handful of fixed strings and no cache of totals answers them. Each shape draws from what the seeded
// catalog holds (its title words, the most frequent of them, facet ids), mangles it as people do
// (misspellings of one and two edits, long phrases and sentences, words no title has), and asks for any
// page of any sort, with and without `obscure` and the other filters. Every text query is of a named text
// shape (TEXT_SHAPES), so a table can time each shape on its own.
import type { Knex } from 'knex';
import { GAME_SORTS } from '../../shared/catalog/search-parameters.js';
import { between, chance, pick } from './random.js';

export interface CatalogVocabulary {
  /** Folded words of game names sampled from the catalog (lower case, as people type them): mostly rare ones. */
  words: string[];
  /** The 300 words the most names hold (three letters or more), the most frequent first. */
  topWords: string[];
  /** Whole names, for phrases people copy from a page. */
  names: string[];
  platforms: number[];
  genres: number[];
  themes: number[];
  publishers: number[];
}

export async function readVocabulary(knex: Knex): Promise<CatalogVocabulary> {
  const { rows: names } = await knex.raw<{ rows: Array<{ name: string }> }>(
    'SELECT name FROM games TABLESAMPLE SYSTEM (5) LIMIT 5000',
  );
  const words = new Set<string>();
  for (const { name } of names) {
    for (const word of name.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word.length >= 3) words.add(word);
  }
  // catalog_title_words is kept by triggers on games: each word of the folded names and how many hold it.
  const { rows: top } = await knex.raw<{ rows: Array<{ word: string }> }>(
    'SELECT word FROM catalog_title_words WHERE length(word) >= 3 ORDER BY games DESC, word LIMIT 300',
  );
  const ids = async (column: string) =>
    (
      await knex.raw<{ rows: Array<{ id: number }> }>(
        `SELECT id FROM (SELECT unnest(${column}) AS id FROM games TABLESAMPLE SYSTEM (2)) t GROUP BY id`,
      )
    ).rows.map((row) => row.id);
  return {
    words: [...words],
    topWords: top.map((row) => row.word),
    names: names.map((row) => row.name),
    platforms: await ids('platform_ids'),
    genres: await ids('genre_ids'),
    themes: await ids('theme_ids'),
    publishers: await ids('publisher_ids'),
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit at a time: a letter dropped, doubled, swapped with the next or replaced (never by itself). */
function editOnce(word: string): string {
  if (word.length < 3) return word + pick([...LETTERS]);
  const at = between(1, word.length - 2);
  switch (between(0, 3)) {
    case 0:
      return word.slice(0, at) + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + word[at] + word.slice(at);
    case 2:
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    default:
      return word.slice(0, at) + pick([...LETTERS.replace(word[at], '')]) + word.slice(at + 1);
  }
}

/**
 * Edits between two words, a swap of neighbours counting as one (optimal string alignment distance): a
 * swap of two equal letters, or a swap undone by the next, changes nothing, so a misspelling is checked.
 */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

/**
 * A typo of `edits` edits (one or two): a letter dropped, doubled, swapped with the next or replaced, as
 * many times as it takes to be that many edits away (a few tries; the last one stands).
 */
export function misspell(word: string, edits = 1): string {
  let typo = word;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    typo = word;
    for (let i = 0; i < edits; i += 1) typo = editOnce(typo);
    if (editDistance(word, typo) === edits) return typo;
  }
  return typo;
}

/** A word no title is likely to hold. */
const nonsense = () => Array.from({ length: between(4, 10) }, () => pick([...LETTERS])).join('');

/** Words joined by spaces, cut at a word boundary to at most `maxLength` characters (the API's limit on q). */
function fit(words: string[], maxLength = 80): string {
  let text = words.join(' ');
  while (text.length > maxLength && text.includes(' ')) text = text.slice(0, text.lastIndexOf(' '));
  return text.slice(0, maxLength);
}

function phrase(vocabulary: CatalogVocabulary, maxLength: number): string {
  const words: string[] = [];
  while (words.join(' ').length < maxLength - 12) words.push(chance(0.8) ? pick(vocabulary.words) : nonsense());
  return words.join(' ').slice(0, maxLength).trim();
}

/** How many of the top words the frequent half of the draws comes from. */
const MOST_FREQUENT = 30;

/** One of the top words, half the time one of the 30 most frequent (the words most titles share). */
function topWord(vocabulary: CatalogVocabulary): string {
  const top = vocabulary.topWords.length > 0 ? vocabulary.topWords : vocabulary.words;
  return chance(0.5) ? top[between(0, Math.min(MOST_FREQUENT, top.length) - 1)] : pick(top);
}

/** `count` different top words (fewer only when the catalog has fewer). */
function topWords(vocabulary: CatalogVocabulary, count: number): string[] {
  const drawn = new Set<string>();
  for (let tries = 0; drawn.size < count && tries < count * 20; tries += 1) drawn.add(topWord(vocabulary));
  return [...drawn];
}

/** The stop words a sentence joins its words with: a link, then sometimes an article. */
const LINKS = ['of', 'and', 'in', 'to', 'for', 'with', 'on'];
const ARTICLES = ['the', 'a'];

/**
 * A sentence of top words with stop words between them, as a description or a title copied whole ("the
 * legend of the mysterious dragon warriors of the ancient kingdom"): built past 80 characters, then cut at
 * a word boundary to at most 80.
 */
function sentence(vocabulary: CatalogVocabulary): string {
  const words = chance(0.5) ? [pick(ARTICLES)] : [];
  while (words.join(' ').length <= 80) {
    words.push(...topWords(vocabulary, between(1, 3)), pick(LINKS));
    if (chance(0.6)) words.push(pick(ARTICLES));
  }
  return fit(words);
}

export interface TextShape {
  /** The shape's name in the tables. */
  name: string;
  make: (vocabulary: CatalogVocabulary) => string;
}

/**
 * Text shapes: what people type into the search box. Sampled words are those of names drawn from the
 * catalog (most of them in few names); top words the 300 most frequent.
 */
export const TEXT_SHAPES: readonly TextShape[] = [
  { name: 'sampled word', make: (v) => pick(v.words) },
  { name: 'two sampled words', make: (v) => `${pick(v.words)} ${pick(v.words)}` },
  { name: 'sampled word, misspelt', make: (v) => misspell(pick(v.words)) },
  { name: 'sampled word + misspelt word', make: (v) => `${pick(v.words)} ${misspell(pick(v.words))}` },
  { name: 'name fragment', make: (v) => pick(v.names).toLowerCase().slice(0, between(3, 40)) },
  { name: 'phrase of 40-80 characters', make: (v) => phrase(v, between(40, 80)) },
  { name: 'nonsense word', make: () => nonsense() },
  { name: 'prefix of 3-5 letters', make: (v) => pick(v.words).slice(0, between(3, 5)) },
  { name: 'prefix of 1-2 letters', make: (v) => pick(v.words).slice(0, between(1, 2)) },
  { name: 'top word', make: (v) => topWord(v) },
  { name: 'top word, one edit', make: (v) => misspell(topWord(v), 1) },
  { name: 'top word, two edits', make: (v) => misspell(topWord(v), 2) },
  { name: 'two top words', make: (v) => fit(topWords(v, 2)) },
  { name: 'three top words', make: (v) => fit(topWords(v, 3)) },
  { name: 'eight top words', make: (v) => fit(topWords(v, 8)) },
  { name: 'sentence of 80 characters', make: (v) => sentence(v) },
  { name: 'top word misspelt + top word', make: (v) => `${misspell(topWord(v))} ${topWord(v)}` },
];

function range(low: number, high: number, span: number): [number, number] {
  const from = between(low, high - span);
  return [from, from + between(0, span)];
}

/**
 * One of the ids the sample found; any small id when it found none (a small demo catalog has no genres or
 * themes at all): a filter that matches nothing, as a stale link would.
 */
const id = (ids: number[]) => (ids.length > 0 ? pick(ids) : between(1, 50));

/** Filter shapes: zero to three of them joined. */
const FILTERS: Array<(v: CatalogVocabulary) => string> = [
  (v) => `platforms=${id(v.platforms)}`,
  (v) => `genres=${id(v.genres)},${id(v.genres)}${chance(0.3) ? '&genresMode=all' : ''}`,
  (v) => `themes=${id(v.themes)}`,
  (v) => `publishers=${id(v.publishers)}`,
  () => {
    const [from, to] = range(1970, 2025, 10);
    return `yearFrom=${from}&yearTo=${to}`;
  },
  () => {
    const [min, max] = range(1, 120, 40);
    return `hoursMin=${min}&hoursMax=${max}`;
  },
  () => pick(['release=released', 'release=upcoming', 'anticipated=1', 'hideCancelled=1']),
  () => pick(['demo=1', 'steam=1', 'rated=1', 'reviewed=1']),
  () => `language=${pick(['en', 'pt', 'ja', 'de', 'fr', 'es-MX', 'pt-BR'])}`,
  () => `age=${pick(['pegi-12', 'pegi-16', 'esrb-t', 'esrb-m', 'usk-12', 'cero-b'])}`,
  () => `rating=${between(40, 90)}`,
  () => `types=${pick(['0', '1,2', '8,9', '0,8,9,10'])}`,
];

/** A page: the first few most often, and any up to the last. */
const page = () => (chance(0.5) ? between(1, 3) : between(4, 100));

/** A text's page: pages 1 to 3 most often (seven in ten), the rest any up to the last. */
const textPage = () => (chance(0.7) ? between(1, 3) : between(4, 100));

/** A text's order: the default ranking (no `sort`) a third of the time, else any of the sorts. */
const textSort = () => (chance(1 / 3) ? null : pick(GAME_SORTS));

/** The kinds of the mix, by number (catalogQuery's `kind`): two browses and a text alone or filtered. */
export const MIX_KINDS = ['filters, browse', 'text', 'text + filters', 'browse, deep, obscure'] as const;

export interface CatalogQuery {
  /** The query's kind (MIX_KINDS). */
  shape: (typeof MIX_KINDS)[number];
  /** A text query's text shape (TEXT_SHAPES' name). */
  textShape?: string;
  query: string;
}

/** A random filter of each of `count` distinct kinds: one parameter given twice would only be its last value. */
const filters = (vocabulary: CatalogVocabulary, count: number) =>
  [...FILTERS]
    .sort(() => Math.random() - 0.5)
    .slice(0, count)
    .map((make) => make(vocabulary));

/**
 * One query of the mix, of `kind` (MIX_KINDS' index; any by default). A text (kinds 1 and 2) is of `text`'s
 * shape, any of TEXT_SHAPES by default: alone (kind 1) or with one or two filters and sometimes `obscure`
 * (kind 2), in the default ranking or any sort, on any page.
 */
export function catalogQuery(
  vocabulary: CatalogVocabulary,
  kind = between(0, 3),
  text: TextShape = pick(TEXT_SHAPES),
): CatalogQuery {
  const shape = MIX_KINDS[kind];
  if (kind === 1 || kind === 2) {
    const parts = [`q=${encodeURIComponent(text.make(vocabulary))}`];
    if (kind === 2) {
      parts.push(...filters(vocabulary, between(1, 2)));
      if (chance(0.4)) parts.push('obscure=1');
    }
    const sort = textSort();
    if (sort) parts.push(`sort=${sort}`);
    parts.push(`page=${textPage()}`);
    return { shape, textShape: text.name, query: parts.join('&') };
  }
  // Browses: a few filters at any page, or few or none past page 20 with `obscure`.
  const parts = filters(vocabulary, kind === 0 ? between(1, 3) : between(0, 1));
  if (kind === 3 && parts.length === 0 && chance(0.5)) parts.push(pick(FILTERS)(vocabulary));
  if (kind === 3 || chance(0.4)) parts.push('obscure=1');
  parts.push(`sort=${pick(GAME_SORTS)}`);
  parts.push(`page=${kind === 3 ? between(20, 100) : page()}`);
  return { shape, query: parts.join('&') };
}

// The catalog's unseen mix: GET /games queries generated anew for every request, so no plan tuned for a
// handful of fixed strings and no cache of totals answers them. Each shape draws from what the seeded
// catalog holds (its title words, facet ids), mangles it as people do (misspellings, long phrases, words no
// title has), and asks for any page of any sort, with and without `obscure` and the other filters.
import type { Knex } from 'knex';
import { GAME_SORTS } from '../../shared/catalog/search-parameters.js';
import { between, chance, pick } from './random.js';

export interface CatalogVocabulary {
  /** Folded words of game names (lower case, as people type them). */
  words: string[];
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
  const ids = async (column: string) =>
    (
      await knex.raw<{ rows: Array<{ id: number }> }>(
        `SELECT id FROM (SELECT unnest(${column}) AS id FROM games TABLESAMPLE SYSTEM (2)) t GROUP BY id`,
      )
    ).rows.map((row) => row.id);
  return {
    words: [...words],
    names: names.map((row) => row.name),
    platforms: await ids('platform_ids'),
    genres: await ids('genre_ids'),
    themes: await ids('theme_ids'),
    publishers: await ids('publisher_ids'),
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One typo: a letter dropped, doubled, swapped with the next or replaced. */
export function misspell(word: string): string {
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
      return word.slice(0, at) + pick([...LETTERS]) + word.slice(at + 1);
  }
}

/** A word no title is likely to hold. */
const nonsense = () => Array.from({ length: between(4, 10) }, () => pick([...LETTERS])).join('');

function phrase(vocabulary: CatalogVocabulary, maxLength: number): string {
  const words: string[] = [];
  while (words.join(' ').length < maxLength - 12) words.push(chance(0.8) ? pick(vocabulary.words) : nonsense());
  return words.join(' ').slice(0, maxLength).trim();
}

/** Text shapes: what people type into the search box. */
const TEXT: Array<(v: CatalogVocabulary) => string> = [
  (v) => pick(v.words),
  (v) => `${pick(v.words)} ${pick(v.words)}`,
  (v) => misspell(pick(v.words)),
  (v) => `${pick(v.words)} ${misspell(pick(v.words))}`,
  (v) => pick(v.names).toLowerCase().slice(0, between(3, 40)),
  (v) => phrase(v, between(40, 80)),
  () => nonsense(),
  (v) => pick(v.words).slice(0, between(3, 5)),
  (v) => pick(v.words).slice(0, between(1, 2)),
];

function range(low: number, high: number, span: number): [number, number] {
  const from = between(low, high - span);
  return [from, from + between(0, span)];
}

/** Filter shapes: zero to three of them joined. */
const FILTERS: Array<(v: CatalogVocabulary) => string> = [
  (v) => `platforms=${pick(v.platforms)}`,
  (v) => `genres=${pick(v.genres)},${pick(v.genres)}${chance(0.3) ? '&genresMode=all' : ''}`,
  (v) => `themes=${pick(v.themes)}`,
  (v) => `publishers=${pick(v.publishers)}`,
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

export interface CatalogQuery {
  shape: string;
  query: string;
}

/** One query of the mix; `shape` names its kind for the per-shape table. */
export function catalogQuery(vocabulary: CatalogVocabulary, kind = between(0, 3)): CatalogQuery {
  const parts: string[] = [];
  // Distinct kinds of filter: one parameter given twice would only be its last value.
  const kinds = [...FILTERS].sort(() => Math.random() - 0.5).slice(0, kind === 0 ? between(1, 3) : between(0, 1));
  const filters = kinds.map((make) => make(vocabulary));
  let shape: string;
  if (kind === 0) shape = 'filters, browse';
  else if (kind === 1) shape = 'text';
  else if (kind === 2) shape = 'text + filters';
  else shape = 'browse, deep, obscure';
  if (kind === 1 || kind === 2) parts.push(`q=${encodeURIComponent(pick(TEXT)(vocabulary))}`);
  if (kind === 2 && filters.length === 0) filters.push(pick(FILTERS)(vocabulary));
  if (kind === 3 && filters.length === 0 && chance(0.5)) filters.push(pick(FILTERS)(vocabulary));
  if (kind !== 1) parts.push(...filters);
  if (kind === 3 || chance(0.4)) parts.push('obscure=1');
  if (kind !== 1 || chance(0.3)) parts.push(`sort=${pick(GAME_SORTS)}`);
  parts.push(`page=${kind === 3 ? between(20, 100) : page()}`);
  return { shape, query: parts.join('&') };
}

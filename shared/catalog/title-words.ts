// The words of a search's text checked against the words titles use (catalog_title_words, kept by triggers
// on games; see its migration): which words some title holds and, for the rest, the nearest title word, so
// a misspelling is corrected from 25,000 words rather than 300,000 names, and a word no title holds stops
// the search before any name is read.
import type { Knex } from 'knex';

/** Similarity a correction needs (pg_trgm's scale, 0 to 1; its default threshold for `%`). */
export const CORRECTION_THRESHOLD = 0.3;
/**
 * Words shorter than this have no trigram of their own: an index cannot find them inside a name, so they
 * are never looked up, never offered as corrections, and never searched for alone.
 */
export const SHORTEST_INDEXED = 3;

export interface TextWord {
  /** The folded word as typed. */
  word: string;
  /** Some title word contains it (a word being typed, or a whole one); short words count as known. */
  known: boolean;
  /** For an unknown word: the most similar title word, or null when none is similar enough. */
  nearest: string | null;
  /** How many names hold the correction (null without one). */
  nearestNames: number | null;
  /** About how many names hold it (the counts of the title words containing it); null for short words. */
  names: number | null;
}

export interface SearchText {
  /** The whole text folded as names are (lower case, accents removed). */
  folded: string;
  words: TextWord[];
  /** About how many names can hold the whole text (its rarest word's count); null when no word says. */
  names: number | null;
  /** About how many games there are (the planner's own count). */
  games: number;
}

/** `text` folded and split as the triggers split names (runs of letters and digits), each word checked. */
export async function checkTextWords(knex: Knex, text: string): Promise<SearchText> {
  const {
    rows: [split],
  } = await knex.raw<{ rows: Array<{ folded: string; words: string[]; games: number }> }>(
    `SELECT f.folded, regexp_split_to_array(f.folded, '[^[:alnum:]]+') AS words,
       (SELECT greatest(reltuples, 0)::int FROM pg_class WHERE oid = 'games'::regclass) AS games
     FROM (SELECT catalog_fold(?) AS folded) f`,
    [text],
  );
  const typed = split.words.filter((word) => word !== '');
  const checked = typed.filter((word) => word.length >= SHORTEST_INDEXED);
  const found = new Map<string, Omit<TextWord, 'word'>>();
  if (checked.length > 0) {
    // The words arrive as one array whose length the planner sees, so each lookup uses the trigram index
    // (a pattern from a set-returning function planned for 1,000 words was a sequential scan each).
    const { rows } = await knex.raw<{
      rows: Array<{ word: string; names: number; nearest: string | null; nearestNames: number | null }>;
    }>(
      `SELECT t.word, n.names, c.word AS nearest, c.games AS "nearestNames"
       FROM unnest(?::text[]) AS t(word)
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(games), 0)::int AS names FROM catalog_title_words w WHERE w.word LIKE '%' || t.word || '%'
       ) n
       LEFT JOIN LATERAL (
         SELECT w.word, w.games FROM catalog_title_words w
         WHERE n.names = 0 AND w.word % t.word AND length(w.word) >= ${SHORTEST_INDEXED}
           AND similarity(w.word, t.word) >= ${CORRECTION_THRESHOLD}
         ORDER BY similarity(w.word, t.word) DESC, w.word LIMIT 1
       ) c ON true`,
      [checked],
    );
    for (const row of rows) found.set(row.word, { ...row, known: row.names > 0 });
  }
  const words = typed.map((word) => ({
    word,
    ...(found.get(word) ?? { known: true, nearest: null, nearestNames: null, names: null }),
  }));
  return { folded: split.folded, words, names: rarest(words.map((word) => word.names)), games: split.games };
}

/**
 * The words to look for once the text as typed found nothing: known words as they are, unknown ones
 * replaced by their correction, and words with none left out. Empty when no word an index can find is left
 * (short words alone would read every name).
 */
export function correctedWords(words: TextWord[]): string[] {
  const corrected = words.flatMap((word) => (word.known ? [word.word] : word.nearest ? [word.nearest] : []));
  return corrected.some((word) => word.length >= SHORTEST_INDEXED) ? corrected : [];
}

/** About how many names hold every corrected word (the rarest one's count); null when no word says. */
export function correctedNames(words: TextWord[]): number | null {
  return rarest(words.map((word) => (word.known ? word.names : word.nearestNames)));
}

/** The smallest of the counts known, or null when none is. */
export function rarest(counts: Array<number | null>): number | null {
  const known = counts.filter((count) => count !== null);
  return known.length ? Math.min(...known) : null;
}

/**
 * Planner statistics for the games and their title words after a bulk load: until autovacuum comes round
 * (and where it is off), the planner would guess their sizes and skip the indexes these searches rely on.
 */
export async function analyzeCatalog(knex: Knex): Promise<void> {
  await knex.raw('ANALYZE games, catalog_title_words');
}

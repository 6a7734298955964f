// A reader for clrmamepro-format `.dat` files (the format of libretro's database and the No-Intro and MAME
// lists): `word ( key value key "quoted value" nested ( ... ) )` blocks, whitespace-separated, with no
// escapes inside quotes (names hold backslashes literally). Pure: text in, blocks out, so it is tested on
// inline samples; the files are read by gametime-titles.ts.

export interface DatBlock {
  /** The word before the parenthesis: `clrmamepro`, `game`, `rom`... */
  kind: string;
  /** Every value of every key, in file order (a key may repeat, e.g. several `franchise` lines). */
  values: Record<string, string[]>;
  /** Nested blocks such as `rom ( ... )`. */
  blocks: DatBlock[];
}

type Token = { type: 'open' } | { type: 'close' } | { type: 'word'; text: string };

const OPEN = 40; // (
const CLOSE = 41; // )
const QUOTE = 34; // "

const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

function* tokens(text: string): Generator<Token> {
  let i = 0;
  const length = text.length;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i += 1;
    } else if (code === OPEN || code === CLOSE) {
      i += 1;
      yield code === OPEN ? { type: 'open' } : { type: 'close' };
    } else if (code === QUOTE) {
      const end = text.indexOf('"', i + 1);
      // An unterminated quote runs to the end of the text rather than failing the whole file.
      const stop = end < 0 ? length : end;
      yield { type: 'word', text: text.slice(i + 1, stop) };
      i = stop + 1;
    } else {
      const start = i;
      while (i < length) {
        const c = text.charCodeAt(i);
        if (isSpace(c) || c === OPEN || c === CLOSE || c === QUOTE) break;
        i += 1;
      }
      yield { type: 'word', text: text.slice(start, i) };
    }
  }
}

/**
 * The top-level blocks of a dat file. Malformed input degrades instead of throwing: a key left without a
 * value is dropped, a block left open at the end is closed, and a stray `)` is ignored.
 */
export function parseDat(text: string): DatBlock[] {
  const top: DatBlock[] = [];
  const stack: DatBlock[] = [];
  let key: string | null = null;
  for (const token of tokens(text)) {
    const current = stack[stack.length - 1];
    if (token.type === 'open') {
      const block: DatBlock = { kind: key ?? '', values: {}, blocks: [] };
      (current ? current.blocks : top).push(block);
      stack.push(block);
      key = null;
    } else if (token.type === 'close') {
      stack.pop();
      key = null;
    } else if (key === null) {
      key = token.text;
    } else if (current) {
      (current.values[key] ??= []).push(token.text);
      key = null;
    } else {
      // A value outside any block: not part of the format, skipped.
      key = null;
    }
  }
  return top;
}

/** The first value of `key` in a block, or null. */
export function datValue(block: DatBlock, key: string): string | null {
  return block.values[key]?.[0] ?? null;
}

// Internationalized host names for Arcade URLs (spec: "For URL refusals about internationalized names ...").
// Three rules, in this order, each a `url_denied` detail:
//   idn_invalid    UTS 46 processing (tr46) refuses the name, as a strict registry would;
//   idn_confusable a label made only of look-alikes of ASCII characters (its UTS 39 skeleton could be the
//                  skeleton of an ASCII label), such as Cyrillic "аррӏе": it would pass for "apple";
//   idn_script     a label that mixes scripts beyond what Chromium's IDN display policy (UTS 39 "highly
//                  restrictive") allows: one script, or Latin with the Japanese, Chinese or Korean sets.
// Look-alikes are judged before scripts so that "раураl" (Cyrillic with a Latin l) is named for what it
// does, pass for "paypal", rather than for the mix. A punycode label is decoded and judged like its Unicode
// form, so "xn--80ak6aa92e.com" is refused exactly as "аррӏе.com" is.
import { createRequire } from 'node:module';
import { ASCII_PROTOTYPES } from './data/confusables-ascii.js';

interface Tr46Options {
  checkHyphens?: boolean;
  checkBidi?: boolean;
  checkJoiners?: boolean;
  useSTD3ASCIIRules?: boolean;
  verifyDNSLength?: boolean;
  transitionalProcessing?: boolean;
  ignoreInvalidPunycode?: boolean;
}
interface Tr46 {
  toASCII(domain: string, options?: Tr46Options): string | null;
  toUnicode(domain: string, options?: Tr46Options): { domain: string; error: boolean };
}
// tr46 is CommonJS without type declarations; requiring it here keeps its shape typed in one place.
const tr46 = createRequire(import.meta.url)('tr46') as Tr46;

/** IDNA2008 as registries apply it: nontransitional (ß stays ß), hyphen, bidi, joiner and length rules. */
const STRICT: Tr46Options = {
  checkHyphens: true,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  transitionalProcessing: false,
  verifyDNSLength: true,
};

export type IdnDetail = 'idn_invalid' | 'idn_confusable' | 'idn_script';

export type HostnameVerdict = { ok: true; ascii: string; unicode: string } | { ok: false; detail: IdnDetail };

/**
 * What a browser makes of a host before deciding whether it is an address: the lenient UTS 46 mapping of
 * the URL standard (full-width digits and dots become ASCII, case folds), or null when even that fails.
 * IP literals are recognised on this form, so "１２７.０.０.１" is caught like 127.0.0.1.
 */
export function browserMappedHostname(name: string): string | null {
  return tr46.toASCII(name, { checkBidi: true, checkJoiners: true, transitionalProcessing: false });
}

/**
 * Whether a host name (no port, no brackets) is internationalized: a label that is Unicode once the browser
 * has mapped it, i.e. punycode (`xn--`) in its ASCII form. Full-width ASCII ("ｍｙｇａｍｅ.com") maps to
 * plain ASCII and is not; a name even the lenient mapping refuses counts when it holds non-ASCII
 * characters or an `xn--` label, since that is what it tries to be.
 */
export function isInternationalizedHostname(name: string): boolean {
  const ace = (text: string) => text.split('.').some((label) => label.toLowerCase().startsWith('xn--'));
  const mapped = browserMappedHostname(name);
  if (mapped !== null) return ace(mapped);
  return !isAscii(name) || ace(name);
}

/** Judges a host name (no port, no brackets) and gives its ASCII and Unicode forms, both lowercase. */
export function processHostname(name: string): HostnameVerdict {
  const ascii = tr46.toASCII(name, STRICT);
  if (ascii === null) return { ok: false, detail: 'idn_invalid' };
  const { domain: unicode, error } = tr46.toUnicode(ascii, STRICT);
  if (error) return { ok: false, detail: 'idn_invalid' };
  const labels = unicode.split('.');
  if (!labels.every(lettersDigitsAndHyphens)) return { ok: false, detail: 'idn_invalid' };
  const last = labels.length - 1;
  // The top-level label is IANA's, not the developer's, and some real ones look like ASCII (Bulgaria's бг
  // reads "6r"): it is refused only when it completes a name that passes for ASCII as a whole.
  const wholeNamePassesForAscii = labels.every(passesForAscii);
  const lookalike = (label: string, index: number) =>
    !isAscii(label) && (index === last ? wholeNamePassesForAscii : passesForAscii(label));
  if (labels.some(lookalike)) return { ok: false, detail: 'idn_confusable' };
  if (!labels.every((label) => isAscii(label) || scriptMixAllowed(label))) return { ok: false, detail: 'idn_script' };
  return { ok: true, ascii, unicode };
}

// UTS 46 keeps symbols and emoji that IDNA 2008 (and so registries and Chromium's display) refuse: a
// label is letters, combining marks, digits and hyphens, plus the two contextual dots IDNA 2008 allows.
const LABEL_CHARACTER = /^[\p{L}\p{M}\p{Nd}\u00b7\u30fb-]$/u;

function lettersDigitsAndHyphens(label: string): boolean {
  const characters = [...label];
  return characters.every(
    (ch, i) =>
      LABEL_CHARACTER.test(ch) &&
      // RFC 5892 CONTEXTO: the Catalan middle dot only in l·l, the katakana middle dot only in Japanese text.
      (ch !== '\u00b7' || (characters[i - 1] === 'l' && characters[i + 1] === 'l')) &&
      (ch !== '\u30fb' || /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(label.replace(/\u30fb/g, ''))),
  );
}

function isAscii(text: string): boolean {
  return /^\p{ASCII}*$/u.test(text);
}

// ---- UTS 39 skeletons (section 4), over the part of confusables.txt that can reach ASCII ----

const PROTOTYPE = new Map<string, string>();
for (const [prototype, sources] of Object.entries(ASCII_PROTOTYPES)) {
  for (const source of sources) PROTOTYPE.set(source, prototype);
}

/** The characters that skeletons of ASCII labels (a-z, 0-9, hyphen) are made of. */
const ASCII_SKELETON_ALPHABET = new Set(
  [...'abcdefghijklmnopqrstuvwxyz0123456789-'].flatMap((ch) => [...(PROTOTYPE.get(ch) ?? ch)]),
);

/**
 * skeleton(X): NFD, default-ignorable code points removed, each character replaced by its prototype, NFD
 * again. Exact for every answer asked of it here and by the store page name rules; characters whose
 * prototype cannot be produced by ASCII letters (small or capital), digits and hyphens stay themselves
 * (see scripts/generate-confusables.ts).
 */
export function skeleton(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFD').replace(/\p{Default_Ignorable_Code_Point}/gu, '')) {
    out += PROTOTYPE.get(ch) ?? ch;
  }
  return out.normalize('NFD');
}

/** True when the label's skeleton is the skeleton of some ASCII label: it is made only of look-alikes. */
export function passesForAscii(label: string): boolean {
  return [...skeleton(label)].every((ch) => ASCII_SKELETON_ALPHABET.has(ch));
}

// ---- Mixed scripts (UTS 39 section 5.1, restriction level "highly restrictive", as Chromium shows IDNs) ----

// ISO 15924 codes of Unicode 17's scripts. An older Node knows fewer: those it cannot test are skipped, and
// a character of such a script then counts as Unknown, which is a script of its own and refused when mixed.
const SCRIPT_CODES =
  `Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Berf Bhks Bopo Brah Brai Bugi Buhd Cakm
  Cans Cari Cham Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi Gara Geor Glag Gong Gonm
  Goth Gran Grek Gujr Gukh Guru Hang Hani Hano Hatr Hebr Hira Hluw Hmng Hmnp Hung Ital Java Kali Kana Kawi Khar Khmr
  Khoj Kits Knda Krai Kthi Lana Laoo Latn Lepc Limb Lina Linb Lisu Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc
  Mero Mlym Modi Mong Mroo Mtei Mult Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr
  Palm Pauc Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sidt Sind Sinh Sogd
  Sogo Sora Soyo Sund Sunu Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Tayo Telu Tfng Tglg Thaa Thai Tibt Tirh Tnsa
  Todr Tols Toto Tutg Ugar Vaii Vith Wara Wcho Xpeo Xsux Yezi Yiii Zanb`.split(/\s+/);

const SCRIPT_TESTS: Array<[string, RegExp]> = [];
for (const code of SCRIPT_CODES) {
  try {
    SCRIPT_TESTS.push([code, new RegExp(`\\p{Script_Extensions=${code}}`, 'u')]);
  } catch {
    // This Node's Unicode predates the script.
  }
}

/** Common (digits, hyphen) and Inherited (combining marks) characters go with any script. */
const ANY_SCRIPT = /^[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]$/u;

/** The Script_Extensions of a character, or null for Common and Inherited ones. */
export function scriptsOf(ch: string): Set<string> | null {
  if (ANY_SCRIPT.test(ch)) return null;
  const scripts = new Set(SCRIPT_TESTS.filter(([, test]) => test.test(ch)).map(([code]) => code));
  return scripts.size > 0 ? scripts : new Set(['Zzzz']);
}

/** UTS 39's augmented script sets: Han is also Japanese, Korean and Chinese writing; kana is Japanese... */
const AUGMENT: Record<string, string[]> = {
  Hani: ['Hanb', 'Jpan', 'Kore'],
  Hira: ['Jpan'],
  Kana: ['Jpan'],
  Hang: ['Kore'],
  Bopo: ['Hanb'],
};

/** Latin may join one of the East Asian writing systems, whose scripts mix by nature. */
const ALLOWED_MIXES = [
  new Set(['Latn', 'Hani', 'Hira', 'Kana']),
  new Set(['Latn', 'Hani', 'Bopo']),
  new Set(['Latn', 'Hani', 'Hang']),
];

export function scriptMixAllowed(label: string): boolean {
  const sets = [...label].map(scriptsOf).filter((set): set is Set<string> => set !== null);
  if (sets.length === 0) return true;
  // Single script: the augmented sets of all characters share a script.
  const augmented = sets.map((set) => new Set([...set].flatMap((code) => [code, ...(AUGMENT[code] ?? [])])));
  const shared = augmented.reduce((acc, set) => new Set([...acc].filter((code) => set.has(code))));
  if (shared.size > 0) return true;
  return ALLOWED_MIXES.some((mix) => sets.every((set) => [...set].some((code) => mix.has(code))));
}

// The real game titles of the `gametime-db` package (libretro's database: No-Intro, MAME and other dat
// files under data/dat, with years, developers, publishers and franchises in data/metadat/<field>/). Its
// `main` names a db.json that the package does not ship, so the dat files are read directly. Each ROM
// entry ("Legend of Zelda, The - A Link to the Past (USA) (Rev 1)") becomes a clean title ("The Legend of
// Zelda: A Link to the Past"); entries with the same clean title on every platform become one title.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { datValue, parseDat, type DatBlock } from './dat-parser.js';

export interface DemoTitle {
  /** The clean title's slug: unique among titles, the dedupe key. */
  key: string;
  name: string;
  /** Earliest release year known for any of its entries. */
  year: number | null;
  developer: string | null;
  publisher: string | null;
  franchise: string | null;
  /** Platform names from the dat file names, sorted. */
  platforms: string[];
  /** Every entry was an add-on (map packs, DLC sets): a type-1 game. */
  dlc: boolean;
}

/** Dat files that list no games: music and video discs, patches, cards for a reader. */
const SKIPPED_FILES = new Set([
  'Microsoft - XBOX 360 (Title Updates)',
  'Nintendo - Game Boy Advance (e-Cards)',
  'Sony - PlayStation Portable (UMD Music)',
  'Sony - PlayStation Portable (UMD Video)',
]);
/** Dat names that are not a platform's own. */
const PLATFORM_ALIASES: Record<string, string> = {
  MAME: 'Arcade',
  DOOM: 'PC (DOS)',
  Quake1: 'PC (DOS)',
  ScummVM: 'PC (DOS)',
  'Nintendo - Nintendo Game Boy Advance': 'Nintendo - Game Boy Advance',
};
/** Metadata folders read, and the title field each fills. */
const METADATA = { releaseyear: 'year', developer: 'developer', publisher: 'publisher', franchise: 'franchise' };
const ARTICLES = "The|A|An|Le|La|Les|L'|Der|Die|Das|El|Il|Lo";
const TRAILING_ARTICLE = new RegExp(`^(.+?), (${ARTICLES})((?: - |: ).*)?$`);
const ADDON = /\((?:Addon|DLC)\)/i;

/** "Nintendo - Nintendo DS (Download Play) (BETA)" → "Nintendo - Nintendo DS"; MAME → "Arcade". */
export function platformName(datName: string): string {
  const name = datName
    .replace(/\s*\([^)]*\)/g, '')
    .replace(/ Decrypted$/, '')
    .trim();
  return PLATFORM_ALIASES[name] ?? name;
}

/**
 * A ROM entry's name as a game title: region, version and dump tags removed (`(USA)`, `(Rev 1)`, `[!]`),
 * No-Intro's moved article put back in front ("Legend of Zelda, The" → "The Legend of Zelda") and its
 * " - " (file names cannot hold a colon) read as the subtitle's colon. Null for BIOS dumps and empties.
 */
export function cleanTitle(entry: string): string | null {
  if (/^\[BIOS\]|\bBIOS\b/i.test(entry)) return null;
  let name = entry;
  // Tags can nest ("(Disc 1 (Alt))"); strip innermost first until none is left.
  for (let previous = ''; previous !== name;) {
    previous = name;
    name = name.replace(/\s*(\([^()]*\)|\[[^[\]]*\])/g, '');
  }
  name = name.replace(/\s+/g, ' ').trim();
  const moved = TRAILING_ARTICLE.exec(name);
  if (moved) name = `${moved[2]}${moved[2].endsWith("'") ? '' : ' '}${moved[1]}${moved[3] ?? ''}`;
  name = name.replace(' - ', ': ');
  return name === '' || name === ':' ? null : name;
}

/** Lowercase ASCII letters, digits and single hyphens ("Pokémon: Blue" → "pokemon-blue"). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const gameBlocks = (blocks: DatBlock[]) => blocks.filter((block) => block.kind === 'game');

/** Collects titles across files; the first value met wins for text fields, the smallest for the year. */
export class TitleCollector {
  private readonly titles = new Map<string, DemoTitle & { platformSet: Set<string> }>();

  private title(entry: string, platform: string, addon: boolean) {
    const name = cleanTitle(entry);
    const key = name && slugify(name);
    if (!name || !key) return null;
    let title = this.titles.get(key);
    if (!title) {
      title = {
        key,
        name,
        year: null,
        developer: null,
        publisher: null,
        franchise: null,
        platforms: [],
        dlc: addon,
        platformSet: new Set(),
      };
      this.titles.set(key, title);
    }
    title.platformSet.add(platform);
    if (!addon) title.dlc = false;
    return title;
  }

  /** A dat file of ROM entries (data/dat/<platform>.dat). */
  addGames(datName: string, text: string): void {
    const platform = platformName(datName);
    const addons = /\(DLC\)/.test(datName);
    for (const block of gameBlocks(parseDat(text))) {
      const entry = datValue(block, 'name');
      if (entry) this.title(entry, platform, addons && ADDON.test(entry));
    }
  }

  /** A metadata dat file (data/metadat/<field>/<platform>.dat). */
  addMetadata(field: keyof typeof METADATA, datName: string, text: string): void {
    const platform = platformName(datName);
    for (const block of gameBlocks(parseDat(text))) {
      const entry = datValue(block, 'name');
      const value = datValue(block, field)?.trim();
      if (!entry || !value) continue;
      const title = this.title(entry, platform, false);
      if (!title) continue;
      if (field === 'releaseyear') {
        const year = Number(value);
        if (Number.isInteger(year) && year >= 1950 && year <= 2100 && (title.year === null || year < title.year)) {
          title.year = year;
        }
      } else {
        const target = METADATA[field] as 'developer' | 'publisher' | 'franchise';
        title[target] ??= value;
      }
    }
  }

  /** Every title, sorted by key. */
  result(): DemoTitle[] {
    return [...this.titles.values()]
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ platformSet, ...title }) => ({ ...title, platforms: [...platformSet].sort() }));
  }
}

/** The package's data folder. */
export function gametimeDataDir(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('gametime-db/package.json')), 'data');
}

const datFiles = async (dir: string) =>
  (await readdir(dir))
    .filter((file) => file.endsWith('.dat'))
    .sort()
    .map((file) => ({ file: path.join(dir, file), datName: file.slice(0, -'.dat'.length) }));

/** Reads every title of the package, in the same order each time (files sorted, then titles by key). */
export async function readGametimeTitles(dataDir = gametimeDataDir()): Promise<DemoTitle[]> {
  const collector = new TitleCollector();
  for (const { file, datName } of await datFiles(path.join(dataDir, 'dat'))) {
    if (!SKIPPED_FILES.has(datName)) collector.addGames(datName, await readFile(file, 'utf8'));
  }
  for (const field of Object.keys(METADATA) as Array<keyof typeof METADATA>) {
    for (const { file, datName } of await datFiles(path.join(dataDir, 'metadat', field))) {
      collector.addMetadata(field, datName, await readFile(file, 'utf8'));
    }
  }
  return collector.result();
}

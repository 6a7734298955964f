// The facet rows of the demo catalog. Genres, themes, modes and perspectives are IGDB's own small lists
// with IGDB's ids, so filters written against real data read the same here. Platforms, companies,
// engines, franchises and series are open-ended names: their ids come from a hash of the name, placed at
// 1,000,000,000 and above so they stay clear of IGDB's ids, and the same name always gets the same id.
import { hash32 } from './random.js';
import { slugify } from './gametime-titles.js';

export type FacetTable =
  | 'catalog_platforms'
  | 'catalog_genres'
  | 'catalog_themes'
  | 'catalog_modes'
  | 'catalog_perspectives'
  | 'catalog_companies'
  | 'catalog_engines'
  | 'catalog_franchises'
  | 'catalog_series';

export interface FacetRow {
  id: number;
  name: string;
  slug: string;
}

export const GENRES = {
  pointAndClick: [2, 'Point-and-click'],
  fighting: [4, 'Fighting'],
  shooter: [5, 'Shooter'],
  music: [7, 'Music'],
  platform: [8, 'Platform'],
  puzzle: [9, 'Puzzle'],
  racing: [10, 'Racing'],
  rts: [11, 'Real Time Strategy (RTS)'],
  rpg: [12, 'Role-playing (RPG)'],
  simulator: [13, 'Simulator'],
  sport: [14, 'Sport'],
  strategy: [15, 'Strategy'],
  tbs: [16, 'Turn-based strategy (TBS)'],
  tactical: [24, 'Tactical'],
  beatEmUp: [25, "Hack and slash/Beat 'em up"],
  quiz: [26, 'Quiz/Trivia'],
  pinball: [30, 'Pinball'],
  adventure: [31, 'Adventure'],
  indie: [32, 'Indie'],
  arcade: [33, 'Arcade'],
  visualNovel: [34, 'Visual Novel'],
  cardAndBoard: [35, 'Card & Board Game'],
} as const satisfies Record<string, readonly [number, string]>;

export const THEMES = [
  [1, 'Action'],
  [17, 'Fantasy'],
  [18, 'Science fiction'],
  [19, 'Horror'],
  [20, 'Thriller'],
  [21, 'Survival'],
  [22, 'Historical'],
  [23, 'Stealth'],
  [27, 'Comedy'],
  [28, 'Business'],
  [31, 'Drama'],
  [32, 'Non-fiction'],
  [33, 'Sandbox'],
  [34, 'Educational'],
  [35, 'Kids'],
  [38, 'Open world'],
  [39, 'Warfare'],
  [40, 'Party'],
  [43, 'Mystery'],
  [44, 'Romance'],
] as const;

export const MODES = {
  single: [1, 'Single player'],
  multi: [2, 'Multiplayer'],
  coop: [3, 'Co-operative'],
  split: [4, 'Split screen'],
  mmo: [5, 'Massively Multiplayer Online (MMO)'],
  battleRoyale: [6, 'Battle Royale'],
} as const;

export const PERSPECTIVES = [
  [1, 'First person'],
  [2, 'Third person'],
  [3, 'Bird view / Isometric'],
  [4, 'Side view'],
  [5, 'Text'],
  [6, 'Auditory'],
  [7, 'Virtual Reality'],
] as const;

/** Engines with the year each appeared, so a 1985 game never runs on Unity. */
export const ENGINES: ReadonlyArray<readonly [string, number]> = [
  ['SCUMM', 1987],
  ['AGI', 1984],
  ['RPG Maker', 1992],
  ['id Tech', 1993],
  ['Build', 1995],
  ['Unreal Engine', 1998],
  ['GameMaker', 1999],
  ['RenderWare', 2000],
  ['Source', 2004],
  ['CryEngine', 2004],
  ['Unity', 2005],
  ['Frostbite', 2008],
  ['Godot', 2014],
];

/** Platforms remakes, remasters and later sequels come out on (the dat files stop around 2013). */
export const MODERN_PLATFORMS: ReadonlyArray<readonly [string, number]> = [
  ['PC (Microsoft Windows)', 1995],
  ['Mac', 2000],
  ['Linux', 2005],
  ['iOS', 2008],
  ['Android', 2009],
  ['PlayStation 4', 2013],
  ['Xbox One', 2013],
  ['Nintendo Switch', 2017],
  ['PlayStation 5', 2020],
  ['Xbox Series X|S', 2020],
];

const FIXED: Partial<Record<FacetTable, ReadonlyArray<readonly [number, string]>>> = {
  catalog_genres: Object.values(GENRES),
  catalog_themes: THEMES,
  catalog_modes: Object.values(MODES),
  catalog_perspectives: PERSPECTIVES,
};

const HASHED_BASE = 1_000_000_000;
const HASHED_SPAN = 1_000_000_000; // base + span stays under PostgreSQL's integer maximum (2^31 - 1)

/**
 * Turns names into facet ids and remembers the rows to write. A hash collision between two names (about
 * one chance in 200 over the whole demo) moves the later name to the next free id: deterministic, since
 * names always arrive in the same order.
 */
export class FacetBook {
  private readonly rows = new Map<FacetTable, Map<number, FacetRow>>();
  private readonly ids = new Map<string, number>();
  private readonly pending: Array<{ table: FacetTable; row: FacetRow }> = [];

  constructor() {
    for (const [table, list] of Object.entries(FIXED) as Array<[FacetTable, Array<[number, string]>]>) {
      for (const [id, name] of list) this.remember(table, { id, name, slug: slugify(name) });
    }
  }

  private remember(table: FacetTable, row: FacetRow): void {
    let byId = this.rows.get(table);
    if (!byId) this.rows.set(table, (byId = new Map()));
    byId.set(row.id, row);
    this.ids.set(`${table}\n${row.name}`, row.id);
    this.pending.push({ table, row });
  }

  /** The id of a named facet (platforms, companies, engines, franchises, series), created on first use. */
  id(table: FacetTable, name: string): number {
    const known = this.ids.get(`${table}\n${name}`);
    if (known !== undefined) return known;
    const taken = this.rows.get(table);
    let id = HASHED_BASE + (hash32(`${table}:${name}`) % HASHED_SPAN);
    while (taken?.has(id)) id = id + 1 >= HASHED_BASE + HASHED_SPAN ? HASHED_BASE : id + 1;
    this.remember(table, { id, name, slug: slugify(name) });
    return id;
  }

  /** Rows created since the last call, grouped by table (the fixed lists come with the first call). */
  takePending(): Map<FacetTable, FacetRow[]> {
    const out = new Map<FacetTable, FacetRow[]>();
    for (const { table, row } of this.pending.splice(0)) {
      const list = out.get(table) ?? [];
      list.push(row);
      out.set(table, list);
    }
    return out;
  }

  /** How many facet rows exist so far. */
  size(): number {
    let total = 0;
    for (const byId of this.rows.values()) total += byId.size;
    return total;
  }
}

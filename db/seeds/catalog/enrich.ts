// The demo catalog's `games` rows. A real title keeps only what its source says (its name, year, platforms,
// companies, franchise, whether it is an add-on) and nothing made up: no genres, ratings, popularity,
// languages or age ratings ("A Link to the Past" is not a sports game). Past the real list come made-up
// follow-ups, named as such ("Doom II (synthetic)"), which get every column of the catalog from a random
// generator seeded by the title itself, so a game's genres or popularity never depend on what else is
// loaded or in which order. Only the store link number and the disambiguated slug of a follow-up depend
// on position, and the position is fixed too (see `games`).
import { AGE_BOARDS, AGE_STEPS, type AgeBoard } from '../../../shared/catalog/age-ratings.js';
import { storedLanguages } from '../../../shared/catalog/languages.js';
import { ENGINES, FacetBook, GENRES, MODERN_PLATFORMS, MODES, PERSPECTIVES, THEMES } from './facets.js';
import { slugify, type DemoTitle } from './gametime-titles.js';
import { hash32, Random } from './random.js';
import { variant } from './variants.js';

/** The year the demo treats as now: later release years are upcoming games. Fixed, so output never drifts. */
export const DEMO_YEAR = 2026;

export interface DemoGameRow {
  slug: string;
  name: string;
  release_date: string | null;
  release_year: number | null;
  type: number;
  status: string;
  demo_available: boolean;
  demo_url: string | null;
  store_url: string | null;
  hours_main: number | null;
  platform_ids: number[];
  genre_ids: number[];
  theme_ids: number[];
  mode_ids: number[];
  perspective_ids: number[];
  publisher_ids: number[];
  developer_ids: number[];
  engine_ids: number[];
  franchise_ids: number[];
  series_ids: number[];
  interface_languages: string[];
  audio_languages: string[];
  subtitle_languages: string[];
  rating: number | null;
  rating_count: number;
  weighted_rating: number | null;
  popularity: number;
  /** Upstream's part of the popularity, which catalog.stats adds the service's own activity to. */
  upstream_popularity: number;
  trending: number;
  hype: number;
  /**
   * Always null: the source (libretro's dat files) has no cover images, and a made-up follow-up must not
   * show some real game's cover. Named in every row, as every column is, so a batch's rows share their keys.
   */
  cover_image_id: null;
  [age: `age_${string}`]: number | null;
}

const G = GENRES;
const GENRE_WEIGHTS: ReadonlyArray<readonly [number, number]> = [
  [G.platform[0], 10],
  [G.adventure[0], 12],
  [G.shooter[0], 8],
  [G.rpg[0], 9],
  [G.puzzle[0], 8],
  [G.sport[0], 8],
  [G.racing[0], 6],
  [G.fighting[0], 4],
  [G.strategy[0], 4],
  [G.simulator[0], 5],
  [G.beatEmUp[0], 3],
  [G.arcade[0], 6],
  [G.music[0], 3],
  [G.quiz[0], 2],
  [G.cardAndBoard[0], 3],
  [G.pinball[0], 1],
  [G.pointAndClick[0], 2],
  [G.tbs[0], 2],
  [G.rts[0], 2],
  [G.tactical[0], 2],
  [G.visualNovel[0], 2],
  [G.indie[0], 3],
];
const PERSPECTIVE_WEIGHTS: ReadonlyArray<readonly [number, number]> = [
  [PERSPECTIVES[0][0], 12],
  [PERSPECTIVES[1][0], 25],
  [PERSPECTIVES[2][0], 20],
  [PERSPECTIVES[3][0], 35],
  [PERSPECTIVES[4][0], 3],
  [PERSPECTIVES[5][0], 1],
  [PERSPECTIVES[6][0], 1],
];
const EXTRA_LANGUAGES = [
  ['es', 0.3],
  ['fr', 0.3],
  ['de', 0.28],
  ['it', 0.2],
  ['ja', 0.2],
  ['pt-BR', 0.15],
  ['ru', 0.1],
  ['pl', 0.06],
  ['zh-CN', 0.08],
  ['ko', 0.05],
] as const;
/** Step index per maturity level (everyone, 10+, teen, mature, adults only) for each board. */
const AGE_BY_MATURITY: Record<AgeBoard, readonly number[]> = {
  esrb: [1, 2, 3, 4, 5],
  pegi: [0, 1, 2, 3, 4],
  cero: [0, 0, 1, 3, 4],
  usk: [0, 1, 2, 3, 4],
  grac: [0, 0, 1, 2, 3],
  class_ind: [0, 1, 2, 4, 5],
  acb: [0, 1, 2, 3, 4],
};
/** Chance a game carries each board's rating, and the year the board started rating. */
const AGE_BOARD_ODDS: Record<AgeBoard, readonly [number, number]> = {
  esrb: [0.45, 1994],
  pegi: [0.35, 2003],
  usk: [0.2, 1994],
  cero: [0.2, 2002],
  acb: [0.1, 1994],
  class_ind: [0.1, 2001],
  grac: [0.05, 2006],
};
const UPCOMING = new Set(['alpha', 'beta', 'rumored', 'early_access']);

/** "Pro Evolution Soccer 2012: Extra" → "Pro Evolution Soccer": the name a series of titles shares. */
export function seriesName(name: string): string {
  return name
    .split(':')[0]
    .replace(/(\s+(\d+|[IVX]+|\d{4}))+$/, '')
    .trim();
}

function releaseDate(random: Random, year: number | null): string | null {
  if (year === null) return null;
  const day = new Date(Date.UTC(year, 0, 1 + random.int(0, 364)));
  return day.toISOString().slice(0, 10);
}

/** The catalog of `titles` as an endless, fixed sequence of rows (real titles, then follow-ups). */
export class DemoCatalog {
  readonly facets = new FacetBook();
  /** Real titles in a fixed shuffled order, so any prefix is a fair sample. */
  readonly titles: DemoTitle[];
  private readonly bases: DemoTitle[];
  private readonly slugs: Set<string>;
  private readonly series = new Map<string, { name: string; size: number }>();
  private readonly companies: string[];

  constructor(titles: DemoTitle[]) {
    const shuffle = (title: DemoTitle) => hash32(title.key);
    this.titles = [...titles].sort((a, b) => shuffle(a) - shuffle(b) || (a.key < b.key ? -1 : 1));
    // Add-ons make poor bases for sequels ("Map Pack II").
    this.bases = this.titles.filter((title) => !title.dlc);
    // Real titles keep their key as slug; follow-ups must not take one even when fewer games are loaded.
    this.slugs = new Set(titles.map((title) => title.key));
    for (const title of titles) {
      const name = seriesName(title.name);
      const key = slugify(name);
      if (!key) continue;
      const known = this.series.get(key);
      if (known) known.size += 1;
      else this.series.set(key, { name, size: 1 });
    }
    const companies = new Set<string>();
    for (const title of titles) for (const name of [title.developer, title.publisher]) if (name) companies.add(name);
    this.companies = [...companies].sort();
  }

  /** The first `count` rows of the sequence. */
  *games(count: number): Generator<DemoGameRow> {
    for (let ordinal = 0; ordinal < count; ordinal += 1) {
      if (ordinal < this.titles.length) {
        const title = this.titles[ordinal];
        yield this.row(title, 0, ordinal, title.key);
      } else {
        const past = ordinal - this.titles.length;
        const title = this.bases[past % this.bases.length];
        yield this.row(title, 1 + Math.floor(past / this.bases.length), ordinal, null);
      }
    }
  }

  /** Follow-ups may repeat a name (a real "Doom II" and Doom's first follow-up): year, then a counter. */
  private uniqueSlug(name: string, year: number | null): string {
    const base = slugify(name) || 'game';
    let slug = base;
    if (this.slugs.has(slug) && year !== null) slug = `${base}-${year}`;
    for (let counter = 2; this.slugs.has(slug); counter += 1) slug = `${base}-${counter}`;
    this.slugs.add(slug);
    return slug;
  }

  /** A real title as its source has it; every column the source does not fill is empty. */
  private realRow(title: DemoTitle, slug: string): DemoGameRow {
    const facets = this.facets;
    const series = this.series.get(slugify(seriesName(title.name)));
    const company = (name: string | null) => (name ? [facets.id('catalog_companies', name)] : []);
    return {
      slug,
      name: title.name,
      // The source gives a year, never a day.
      release_date: null,
      release_year: title.year,
      type: title.dlc ? 1 : 0,
      status: 'released',
      demo_available: false,
      demo_url: null,
      store_url: null,
      hours_main: null,
      platform_ids: [...new Set(title.platforms.map((p) => facets.id('catalog_platforms', p)))],
      genre_ids: [],
      theme_ids: [],
      mode_ids: [],
      perspective_ids: [],
      publisher_ids: company(title.publisher),
      developer_ids: company(title.developer),
      engine_ids: [],
      franchise_ids: title.franchise ? [facets.id('catalog_franchises', title.franchise)] : [],
      // Titles of the source that share a name before their number or subtitle ("Doom", "Doom II").
      series_ids: series && series.size >= 2 ? [facets.id('catalog_series', series.name)] : [],
      ...Object.fromEntries(AGE_BOARDS.map((board) => [`age_${board}`, null])),
      interface_languages: [],
      audio_languages: [],
      subtitle_languages: [],
      rating: null,
      rating_count: 0,
      weighted_rating: null,
      // What people do with it (catalog.stats) is its popularity, as for any game.
      popularity: 0,
      upstream_popularity: 0,
      trending: 0,
      hype: 0,
      cover_image_id: null,
    };
  }

  private row(title: DemoTitle, round: number, ordinal: number, slug: string | null): DemoGameRow {
    if (round === 0) return this.realRow(title, slug ?? title.key);
    const random = new Random(`${title.key}#${round}`);
    const follow = variant(title.name, round);
    const name = follow.name;
    let year = title.year;
    if (year !== null) year = Math.min(2100, year + random.int(...follow.years));
    const type = follow.type;

    const status = random.weighted(
      year === null ? UNDATED_STATUS : year > DEMO_YEAR ? FUTURE_STATUS : DATED_STATUS,
    ) as string;
    // An undated game in development gets a date ahead, so the catalog always has upcoming games.
    if (year === null && UPCOMING.has(status) && status !== 'early_access') year = DEMO_YEAR + random.int(1, 2);

    const facets = this.facets;
    const platforms = this.platforms(random, title, year).map((p) => facets.id('catalog_platforms', p));
    const genres = this.genres(random, title);
    const developer = title.developer ?? (random.chance(0.6) ? random.pick(this.companies) : null);
    const publisher =
      title.publisher ??
      (developer && random.chance(0.5) ? developer : random.chance(0.5) ? random.pick(this.companies) : null);
    const engines = ENGINES.filter(([, since]) => since <= (year ?? DEMO_YEAR));
    const engine = engines.length > 0 && random.chance(0.07) ? random.pick(engines)[0] : null;
    const series = this.series.get(slugify(seriesName(title.name)));
    // A follow-up is always of its title's series.
    const seriesTitle = series && series.size >= 2 ? series.name : seriesName(title.name) || title.name;
    const franchise = title.franchise ?? ((series?.size ?? 0) >= 3 ? seriesTitle : null);

    const popularity = random.longTail(0.7, 2, 100_000);
    const ratingCount =
      popularity > 0 ? Math.floor(popularity * (0.1 + random.next() * 0.5)) : random.longTail(0.9, 2, 50);
    const rating =
      ratingCount > 0
        ? Math.max(10, Math.min(100, Math.round(45 + 30 * bell(random) + Math.log10(ratingCount + 1) * 4)))
        : null;
    const demo = random.chance(0.03);
    const storeLink = `https://store.example/app/${100_000 + ordinal}`;
    const interfaceLanguages = ['en', ...EXTRA_LANGUAGES.filter(([, p]) => random.chance(p)).map(([code]) => code)];

    return {
      slug: slug ?? this.uniqueSlug(name, year),
      name,
      release_date: releaseDate(random, year),
      release_year: year,
      type,
      status,
      demo_available: demo,
      demo_url: demo ? `${storeLink}/demo` : null,
      store_url: random.chance(0.2) ? storeLink : null,
      hours_main: random.chance(0.55) ? hours(random, genres) : null,
      platform_ids: [...new Set(platforms)],
      genre_ids: genres,
      theme_ids: random.some(THEMES, random.weighted(THEME_COUNTS)).map(([id]) => id),
      mode_ids: modes(random),
      perspective_ids: [
        ...new Set([
          random.weighted(PERSPECTIVE_WEIGHTS),
          ...(random.chance(0.1) ? [random.pick(PERSPECTIVES)[0]] : []),
        ]),
      ],
      publisher_ids: publisher ? [facets.id('catalog_companies', publisher)] : [],
      developer_ids: developer ? [facets.id('catalog_companies', developer)] : [],
      engine_ids: engine ? [facets.id('catalog_engines', engine)] : [],
      franchise_ids: franchise ? [facets.id('catalog_franchises', franchise)] : [],
      series_ids: [facets.id('catalog_series', seriesTitle)],
      ...ageRatings(random, year),
      interface_languages: storedLanguages(interfaceLanguages),
      audio_languages: storedLanguages(random.chance(0.5) ? ['en', ...(random.chance(0.2) ? ['ja'] : [])] : []),
      subtitle_languages: storedLanguages(random.chance(0.6) ? interfaceLanguages : []),
      rating,
      rating_count: ratingCount,
      // A Bayesian average (10 votes of 65 added), so a game with two votes does not top the rating sort.
      weighted_rating:
        rating === null ? null : Math.round(((ratingCount * rating + 10 * 65) / (ratingCount + 10)) * 100) / 100,
      popularity,
      upstream_popularity: popularity,
      trending: popularity > 0 ? Math.round(popularity * Math.pow(random.next(), 3) * 20) / 100 : 0,
      hype: UPCOMING.has(status) ? random.longTail(0.3, 10, 50_000) : random.longTail(0.97, 1, 1000),
      cover_image_id: null,
    };
  }

  private platforms(random: Random, title: DemoTitle, year: number | null): string[] {
    // A follow-up years later comes out on the platforms of its time, not on the original's.
    if (year === null || year < 2013) return title.platforms;
    const current = MODERN_PLATFORMS.filter(([, since]) => since <= year).map(([name]) => name);
    return random.some(current, random.int(1, 3)).sort();
  }

  private genres(random: Random, title: DemoTitle): number[] {
    const ids: number[] = [random.weighted(GENRE_WEIGHTS)];
    if (title.platforms.includes('Arcade') && random.chance(0.6)) ids.push(G.arcade[0]);
    if (random.chance(0.35)) ids.push(random.weighted(GENRE_WEIGHTS));
    return [...new Set<number>(ids)];
  }
}

const DATED_STATUS = [
  ['released', 98.5],
  ['delisted', 0.5],
  ['offline', 0.5],
  ['cancelled', 0.5],
] as const;
const UNDATED_STATUS = [
  ['released', 93],
  ['cancelled', 2],
  ['early_access', 2],
  ['beta', 1],
  ['alpha', 1],
  ['rumored', 1],
] as const;
const FUTURE_STATUS = [
  ['rumored', 3],
  ['alpha', 2],
  ['beta', 2],
  ['early_access', 2],
] as const;
const THEME_COUNTS = [
  [0, 3],
  [1, 5],
  [2, 2],
] as const;

/** Roughly normal in [-1, 1] (the mean of three uniforms). */
const bell = (random: Random) => ((random.next() + random.next() + random.next()) / 3 - 0.5) * 2;

function hours(random: Random, genres: number[]): number {
  const long = genres.some((id) => id === G.rpg[0] || id === G.strategy[0] || id === G.tbs[0]);
  const base = 1 + Math.floor(Math.pow(random.next(), 2) * 30);
  return Math.min(500, long ? base + random.int(10, 60) : base);
}

function modes(random: Random): number[] {
  const ids: number[] = [];
  if (random.chance(0.9)) ids.push(MODES.single[0]);
  if (random.chance(0.35)) {
    ids.push(MODES.multi[0]);
    if (random.chance(0.4)) ids.push(MODES.coop[0]);
    if (random.chance(0.25)) ids.push(MODES.split[0]);
    if (random.chance(0.02)) ids.push(MODES.mmo[0]);
    if (random.chance(0.01)) ids.push(MODES.battleRoyale[0]);
  }
  return ids.length > 0 ? ids : [MODES.single[0]];
}

function ageRatings(random: Random, year: number | null): Record<`age_${string}`, number | null> {
  const maturity = random.weighted([
    [0, 40],
    [1, 20],
    [2, 22],
    [3, 17],
    [4, 1],
  ] as const);
  const out: Record<`age_${string}`, number | null> = {};
  for (const board of AGE_BOARDS) {
    const [odds, since] = AGE_BOARD_ODDS[board];
    const rated = (year === null || year >= since) && random.chance(odds);
    const step = AGE_BY_MATURITY[board][maturity];
    out[`age_${board}`] = rated ? Math.min(step, AGE_STEPS[board].length - 1) : null;
  }
  return out;
}

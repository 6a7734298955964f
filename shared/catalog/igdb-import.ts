// Imports upstream catalog data in IGDB's shape: a JSON-lines file, one entity a line, each with `_type`
// naming its IGDB endpoint (game, platform, genre, theme, game_mode, player_perspective, company,
// involved_company, game_engine, franchise, collection, age_rating, language, language_support, website,
// game_time_to_beat, cover) and the endpoint's own fields, related entities named by upstream id. Lines may come
// in any order, so the file is read twice: related entities first, then games. Everything is an upsert
// keyed by upstream id, so importing again updates and never duplicates.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { analyzeCatalog } from './title-words.js';
import type { Knex } from 'knex';
import { AGE_BOARDS, igdbAgeRating, type AgeBoard } from './age-ratings.js';
import { refreshCompanyCounts } from './companies.js';
import { coverImageId } from '../content/game-covers.js';
import { storedLanguages } from './languages.js';
import {
  CatalogCompany,
  CatalogEngine,
  CatalogFranchise,
  CatalogGenre,
  CatalogMode,
  CatalogPerspective,
  CatalogPlatform,
  CatalogSeries,
  CatalogTheme,
  Game,
  type FacetModel,
} from './models.js';

const FACET_MODELS: Record<string, FacetModel> = {
  platform: CatalogPlatform,
  genre: CatalogGenre,
  theme: CatalogTheme,
  game_mode: CatalogMode,
  player_perspective: CatalogPerspective,
  company: CatalogCompany,
  game_engine: CatalogEngine,
  franchise: CatalogFranchise,
  collection: CatalogSeries,
};

/** IGDB game status ids (absent: released). */
const STATUS: Record<number, string> = {
  0: 'released',
  2: 'alpha',
  3: 'beta',
  4: 'early_access',
  5: 'offline',
  6: 'cancelled',
  7: 'rumored',
  8: 'delisted',
};
const STEAM_WEBSITE = 13;
const SUPPORT_KINDS: Record<number, 'audio' | 'subtitle' | 'interface'> = { 1: 'audio', 2: 'subtitle', 3: 'interface' };
const BATCH = 500;

type Line = Record<string, unknown> & { _type?: string; id?: number };

interface Related {
  companies: Map<number, { game: number; company: number; publisher: boolean; developer: boolean }>;
  ageRatings: Map<number, { board: AgeBoard; step: number }>;
  locales: Map<number, string>;
  supports: Map<number, Array<{ language: number; kind: string }>>;
  steam: Map<number, string>;
  hours: Map<number, number>;
  /** A `cover` line's image id, by the cover's id (what a game's `cover` names) and by its `game`. */
  covers: Map<number, string>;
  coversByGame: Map<number, string>;
}

export interface ImportProgress {
  facets: number;
  games: number;
  skipped: number;
}

async function* lines(file: string): AsyncGenerator<{ line: Line; number: number }> {
  let number = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    number += 1;
    if (text.trim() === '') continue;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      throw new Error(`line ${number} is not JSON`);
    }
    if (!line || typeof line !== 'object' || typeof (line as Line)._type !== 'string') {
      throw new Error(`line ${number} has no "_type"`);
    }
    yield { line: line as Line, number };
  }
}

const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : [];

async function upsert(knex: Knex, model: FacetModel, rows: object[]): Promise<void> {
  if (rows.length === 0) return;
  await model.query(knex).insert(rows).onConflict('id').merge();
}

/** Pass 1: facet tables and the related rows games point at. */
async function readRelated(knex: Knex, file: string, progress: ImportProgress): Promise<Related> {
  const related: Related = {
    companies: new Map(),
    ageRatings: new Map(),
    locales: new Map(),
    supports: new Map(),
    steam: new Map(),
    hours: new Map(),
    covers: new Map(),
    coversByGame: new Map(),
  };
  const pending = new Map<FacetModel, object[]>();
  const flush = async (model: FacetModel) => {
    await upsert(knex, model, pending.get(model) ?? []);
    pending.set(model, []);
  };
  for await (const { line } of lines(file)) {
    const type = line._type!;
    const model = FACET_MODELS[type];
    if (model) {
      if (!Number.isInteger(line.id) || typeof line.name !== 'string') continue;
      const rows = pending.get(model) ?? [];
      const row = {
        id: line.id,
        name: line.name,
        slug: typeof line.slug === 'string' ? line.slug : null,
        updated_at: knex.fn.now(),
      };
      rows.push(type === 'company' ? { ...row, ...companyFields(line) } : row);
      pending.set(model, rows);
      progress.facets += 1;
      if (rows.length >= BATCH) await flush(model);
    } else if (type === 'involved_company') {
      related.companies.set(line.id!, {
        game: line.game as number,
        company: line.company as number,
        publisher: line.publisher === true,
        developer: line.developer === true,
      });
    } else if (type === 'age_rating') {
      const rating = igdbAgeRating(line.category as number, line.rating as number);
      if (rating) related.ageRatings.set(line.id!, rating);
    } else if (type === 'language' && typeof line.locale === 'string') {
      related.locales.set(line.id!, line.locale);
    } else if (type === 'language_support' && Number.isInteger(line.game)) {
      const list = related.supports.get(line.game as number) ?? [];
      list.push({ language: line.language as number, kind: SUPPORT_KINDS[line.language_support_type as number] });
      related.supports.set(line.game as number, list);
    } else if (type === 'website' && line.category === STEAM_WEBSITE && typeof line.url === 'string') {
      related.steam.set(line.game as number, line.url);
    } else if (type === 'game_time_to_beat' && Number.isInteger(line.normally)) {
      related.hours.set(line.game_id as number, Math.max(1, Math.round((line.normally as number) / 3600)));
    } else if (type === 'cover') {
      const image = coverImageId(line.image_id);
      if (image === null) continue;
      if (Number.isInteger(line.id)) related.covers.set(line.id!, image);
      if (Number.isInteger(line.game)) related.coversByGame.set(line.game as number, image);
    }
  }
  for (const model of pending.keys()) await flush(model);
  return related;
}

/** IGDB company status ids. */
const COMPANY_STATUS: Record<number, string> = { 0: 'active', 1: 'defunct', 2: 'merged', 3: 'renamed' };

function companyFields(line: Line) {
  const started = Number.isInteger(line.start_date) ? new Date((line.start_date as number) * 1000) : null;
  return {
    status: line.status === undefined ? 'active' : (COMPANY_STATUS[line.status as number] ?? null),
    start_date: started ? started.toISOString().slice(0, 10) : null,
  };
}

/**
 * A game's cover image id: its `cover` names a cover line by id, or holds the cover itself (an export
 * expanded with `cover.image_id`); else a cover line naming the game. Null for a game without one, so a
 * re-import that no longer has the cover clears it, as it does every other column upstream gives.
 */
function gameCover(line: Line, related: Related): string | null {
  const cover = line.cover;
  if (Number.isInteger(cover)) {
    const named = related.covers.get(cover as number);
    if (named) return named;
  } else if (cover && typeof cover === 'object') {
    const inline = coverImageId((cover as { image_id?: unknown }).image_id);
    if (inline) return inline;
  }
  return related.coversByGame.get(line.id as number) ?? null;
}

/** One IGDB game line as a `games` row; null when it lacks a name or slug. */
export function gameRow(line: Line, related: Related): Record<string, unknown> | null {
  if (!Number.isInteger(line.id) || typeof line.name !== 'string' || typeof line.slug !== 'string') return null;
  const released = Number.isInteger(line.first_release_date)
    ? new Date((line.first_release_date as number) * 1000)
    : null;
  const year = released?.getUTCFullYear() ?? null;
  const involved = ids(line.involved_companies)
    .map((id) => related.companies.get(id))
    .filter((c) => c !== undefined);
  const ages: Partial<Record<AgeBoard, number>> = {};
  for (const id of ids(line.age_ratings)) {
    const rating = related.ageRatings.get(id);
    if (rating) ages[rating.board] = rating.step;
  }
  const languages = { audio: [] as string[], subtitle: [] as string[], interface: [] as string[] };
  for (const support of related.supports.get(line.id as number) ?? []) {
    const locale = related.locales.get(support.language);
    if (locale && support.kind) languages[support.kind as keyof typeof languages].push(locale);
  }
  const type = (line.game_type ?? line.category) as number | undefined;
  return {
    igdb_id: line.id,
    slug: line.slug,
    name: line.name,
    release_date: released ? released.toISOString().slice(0, 10) : null,
    release_year: year !== null && year >= 1950 && year <= 2100 ? year : null,
    type: Number.isInteger(type) && type! >= 0 && type! <= 14 ? type : null,
    status: STATUS[line.status as number] ?? 'released',
    store_url: related.steam.get(line.id as number) ?? null,
    cover_image_id: gameCover(line, related),
    hours_main: related.hours.get(line.id as number) ?? null,
    platform_ids: ids(line.platforms),
    genre_ids: ids(line.genres),
    theme_ids: ids(line.themes),
    mode_ids: ids(line.game_modes),
    perspective_ids: ids(line.player_perspectives),
    publisher_ids: [...new Set(involved.filter((c) => c.publisher).map((c) => c.company))],
    developer_ids: [...new Set(involved.filter((c) => c.developer).map((c) => c.company))],
    engine_ids: ids(line.game_engines),
    franchise_ids: [...new Set([...ids(line.franchises), ...ids([line.franchise])])],
    series_ids: [...new Set([...ids(line.collections), ...ids([line.collection])])],
    ...Object.fromEntries(AGE_BOARDS.map((board) => [`age_${board}`, ages[board] ?? null])),
    audio_languages: storedLanguages(languages.audio),
    subtitle_languages: storedLanguages(languages.subtitle),
    interface_languages: storedLanguages(languages.interface),
    hype: Number.isInteger(line.hypes) ? line.hypes : 0,
    popularity: typeof line.follows === 'number' ? line.follows : 0,
    upstream_popularity: typeof line.follows === 'number' ? line.follows : 0,
  };
}

/** Imports `file`; `onProgress` is called after every batch of games. */
export async function importIgdbFile(
  knex: Knex,
  file: string,
  onProgress: (progress: ImportProgress) => void = () => undefined,
): Promise<ImportProgress> {
  const progress: ImportProgress = { facets: 0, games: 0, skipped: 0 };
  const related = await readRelated(knex, file, progress);
  onProgress(progress);
  let batch: Array<Record<string, unknown>> = [];
  const flush = async () => {
    // A re-import updates the columns upstream gives and keeps our id and the service's own counts.
    await Game.query(knex).insert(batch).onConflict('igdb_id').merge();
    progress.games += batch.length;
    batch = [];
    onProgress(progress);
  };
  for await (const { line } of lines(file)) {
    if (line._type !== 'game') continue;
    const row = gameRow(line, related);
    if (!row) {
      progress.skipped += 1;
      continue;
    }
    batch.push({ ...row, updated_at: knex.fn.now() });
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  await refreshCompanyCounts(knex);
  await analyzeCatalog(knex);
  return progress;
}

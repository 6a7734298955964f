// The catalog importer on a small file in IGDB's shape: every related entity mapped by upstream id, lines
// in any order, and a second import that updates without duplicating.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parseAgeFilter } from '../../shared/catalog/age-ratings.js';
import { importIgdbFile } from '../../shared/catalog/igdb-import.js';
import { languageTerms, storedLanguages } from '../../shared/catalog/languages.js';
import { db } from '../../shared/platform/db/knex.js';
import { useCleanDatabase } from '../helpers/clean-database.js';

const HALF_LIFE = {
  _type: 'game',
  id: 231,
  name: 'Half-Life 2',
  slug: 'half-life-2',
  first_release_date: 1100563200, // 2004-11-16
  game_type: 0,
  platforms: [6, 14],
  genres: [5],
  themes: [18],
  game_modes: [1],
  player_perspectives: [1],
  involved_companies: [901, 902],
  game_engines: [400],
  franchises: [77],
  collections: [88],
  age_ratings: [501, 502],
  hypes: 12,
  follows: 3400,
  cover: 7001,
};

const LINES = [
  // Games first: the importer must not depend on the order of the file.
  HALF_LIFE,
  { _type: 'game', id: 999, name: 'Cancelled Thing', slug: 'cancelled-thing', status: 6, category: 8 },
  { _type: 'game', id: 1000, name: 'No slug here' },
  { _type: 'platform', id: 6, name: 'PC (Microsoft Windows)', slug: 'win' },
  { _type: 'platform', id: 14, name: 'Mac', slug: 'mac' },
  { _type: 'genre', id: 5, name: 'Shooter', slug: 'shooter' },
  { _type: 'theme', id: 18, name: 'Science fiction', slug: 'science-fiction' },
  { _type: 'game_mode', id: 1, name: 'Single player', slug: 'single-player' },
  { _type: 'player_perspective', id: 1, name: 'First person', slug: 'first-person' },
  { _type: 'company', id: 56, name: 'Valve', slug: 'valve' },
  { _type: 'company', id: 57, name: 'Sierra Entertainment', slug: 'sierra' },
  { _type: 'involved_company', id: 901, game: 231, company: 56, developer: true, publisher: true },
  { _type: 'involved_company', id: 902, game: 231, company: 57, developer: false, publisher: true },
  { _type: 'game_engine', id: 400, name: 'Source', slug: 'source' },
  { _type: 'franchise', id: 77, name: 'Half-Life', slug: 'half-life' },
  { _type: 'collection', id: 88, name: 'Half-Life series', slug: 'half-life-series' },
  { _type: 'age_rating', id: 501, category: 2, rating: 4 }, // PEGI 16
  { _type: 'age_rating', id: 502, category: 1, rating: 11 }, // ESRB M
  { _type: 'language', id: 1, locale: 'en-US', name: 'English' },
  { _type: 'language', id: 2, locale: 'pt-BR', name: 'Portuguese (Brazil)' },
  { _type: 'language_support', id: 1, game: 231, language: 1, language_support_type: 1 },
  { _type: 'language_support', id: 2, game: 231, language: 1, language_support_type: 3 },
  { _type: 'language_support', id: 3, game: 231, language: 2, language_support_type: 2 },
  { _type: 'website', id: 1, game: 231, category: 13, url: 'https://store.steampowered.com/app/220' },
  { _type: 'game_time_to_beat', id: 1, game_id: 231, normally: 13 * 3600 + 1200 },
  { _type: 'cover', id: 7001, game: 231, image_id: 'co1nmw', width: 264, height: 374 },
];

function writeLines(lines: object[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'jogatina-igdb-')), 'catalog.jsonl');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

describe('catalog import (IGDB shape)', () => {
  useCleanDatabase();

  it('maps a game and everything it names by upstream id, whatever the order of the lines', async () => {
    const progress: number[] = [];
    const done = await importIgdbFile(db(), writeLines(LINES), (p) => progress.push(p.games));
    expect(done).to.deep.equal({ facets: 11, games: 2, skipped: 1 });
    expect(progress.at(-1)).to.equal(2);
    const game = await db()('games').where({ igdb_id: 231 }).first();
    expect(game).to.deep.include({
      slug: 'half-life-2',
      name: 'Half-Life 2',
      release_year: 2004,
      type: 0,
      status: 'released',
      store_url: 'https://store.steampowered.com/app/220',
      hours_main: 13,
      platform_ids: [6, 14],
      publisher_ids: [56, 57],
      developer_ids: [56],
      engine_ids: [400],
      franchise_ids: [77],
      series_ids: [88],
      age_pegi: 3,
      age_esrb: 4,
      age_usk: null,
      audio_languages: ['en', 'en-US'],
      interface_languages: ['en', 'en-US'],
      subtitle_languages: ['pt', 'pt-BR'],
      hype: 12,
      cover_image_id: 'co1nmw',
    });
    expect(game.release_date.toISOString?.() ?? String(game.release_date)).to.match(/2004-11-1[56]/);
    const cancelled = await db()('games').where({ igdb_id: 999 }).first();
    expect(cancelled).to.deep.include({ status: 'cancelled', type: 8, platform_ids: [] });
    expect((await db()('catalog_companies').orderBy('id')).map((c) => c.name)).to.deep.equal([
      'Valve',
      'Sierra Entertainment',
    ]);
  });

  it('updates on a second import and never duplicates; our ids stay', async () => {
    await importIgdbFile(db(), writeLines(LINES));
    const before = await db()('games').where({ igdb_id: 231 }).first('id');
    const renamed = LINES.map((line) => (line === HALF_LIFE ? { ...HALF_LIFE, name: 'Half-Life 2 (2004)' } : line));
    await importIgdbFile(db(), writeLines(renamed));
    const rows = await db()('games').where({ igdb_id: 231 });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ id: before.id, name: 'Half-Life 2 (2004)' });
    expect(await db()('games').count('* as n').first()).to.deep.equal({ n: 2 });
    expect(await db()('catalog_platforms').count('* as n').first()).to.deep.equal({ n: 2 });
  });

  it('keeps a game’s cover image id however the file names it; none, or an odd one, is null', async () => {
    const lines = [
      { _type: 'game', id: 501, name: 'Named', slug: 'cover-named', cover: 11 },
      { _type: 'cover', id: 11, game: 501, image_id: 'co0001' },
      // An export expanded with `cover.image_id`.
      { _type: 'game', id: 502, name: 'Inline', slug: 'cover-inline', cover: { id: 12, image_id: 'co0002' } },
      // Only the cover line says whose it is.
      { _type: 'game', id: 503, name: 'Naming the game', slug: 'cover-of-game' },
      { _type: 'cover', id: 13, game: 503, image_id: 'co0003' },
      // An id that would leave its path segment of the URL is not kept.
      { _type: 'game', id: 504, name: 'Odd', slug: 'cover-odd', cover: 14 },
      { _type: 'cover', id: 14, game: 504, image_id: '../co0004' },
      { _type: 'game', id: 505, name: 'None', slug: 'cover-none' },
    ];
    const covers = async () =>
      Object.fromEntries(
        (
          await db()('games').whereBetween('igdb_id', [501, 505]).orderBy('igdb_id').select('slug', 'cover_image_id')
        ).map((row: { slug: string; cover_image_id: string | null }) => [row.slug, row.cover_image_id]),
      );
    const done = await importIgdbFile(db(), writeLines(lines));
    expect(done).to.deep.include({ facets: 0, games: 5 });
    expect(await covers()).to.deep.equal({
      'cover-named': 'co0001',
      'cover-inline': 'co0002',
      'cover-of-game': 'co0003',
      'cover-odd': null,
      'cover-none': null,
    });
    // Imported again without the cover lines: upstream no longer gives those covers, as with any column.
    await importIgdbFile(db(), writeLines(lines.filter((line) => line._type !== 'cover')));
    expect(await covers()).to.deep.include({ 'cover-named': null, 'cover-inline': 'co0002', 'cover-of-game': null });
  });

  it('names the line that is not JSON or has no _type', async () => {
    for (const [text, message] of [
      ['{"_type":"genre","id":1,"name":"x"}\n{oops\n', /line 2 is not JSON/],
      ['{"id":1}\n', /line 1 has no "_type"/],
    ] as const) {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'jogatina-igdb-')), 'bad.jsonl');
      writeFileSync(file, text);
      try {
        await importIgdbFile(db(), file);
        expect.fail('should refuse');
      } catch (error) {
        expect((error as Error).message).to.match(message);
      }
    }
  });
});

describe('catalog rules', () => {
  it('keeps a language with its base so pt matches pt-BR and pt-PT', () => {
    expect(languageTerms('pt-br')).to.deep.equal(['pt-BR', 'pt']);
    expect(storedLanguages(['pt-PT', 'pt-BR', 'en'])).to.deep.equal(['en', 'pt', 'pt-BR', 'pt-PT']);
    expect(storedLanguages(['not a code'])).to.deep.equal([]);
  });

  it('reads age filters as board and step, youngest first', () => {
    expect(parseAgeFilter('pegi-16')).to.deep.equal({ board: 'pegi', step: 3 });
    expect(parseAgeFilter('class_ind-12')).to.deep.equal({ board: 'class_ind', step: 2 });
    expect(parseAgeFilter('esrb-t')).to.deep.equal({ board: 'esrb', step: 3 });
    for (const bad of ['pegi-15', 'bbfc-12', 'pegi', '-16']) expect(parseAgeFilter(bad), bad).to.equal(null);
  });
});

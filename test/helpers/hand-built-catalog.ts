// A small hand-built catalog where every right answer is known (catalog-games.test.ts): two genres, an
// engine and games of every type, status and age the browse, search and filters must tell apart.
import { db } from '../../shared/platform/db/knex.js';

const TODAY = new Date();
const daysFromToday = (days: number) => new Date(TODAY.getTime() + days * 86400000).toISOString().slice(0, 10);

let counter = 0;
/** One game, with the fields a catalog row needs unless told; answers its id. */
export async function game(slug: string, fields: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  const [row] = await db()('games')
    .insert({
      slug,
      name: fields.name ?? slug,
      type: 0,
      popularity: 1,
      release_date: '2015-06-01',
      release_year: 2015,
      igdb_id: 100000 + counter,
      ...fields,
    })
    .returning('id');
  return row.id;
}

/** The catalog's genres, engine and games; answers each game's id by slug. */
export async function handBuiltCatalog(): Promise<Record<string, number>> {
  await db()('catalog_genres').insert([
    { id: 5, name: 'Shooter' },
    { id: 12, name: 'Role-playing (RPG)' },
  ]);
  await db()('catalog_engines').insert([{ id: 400, name: 'Source' }]);
  const rows: Array<[string, Record<string, unknown>]> = [
    [
      'the-legend-of-zelda',
      {
        name: 'The Legend of Zelda',
        popularity: 90,
        genre_ids: [12],
        platform_ids: [18],
        release_year: 1986,
        release_date: '1986-02-21',
        age_pegi: 1,
        hype: 0,
      },
    ],
    [
      'zelda-ii',
      {
        name: 'Zelda II: The Adventure of Link',
        popularity: 40,
        genre_ids: [12],
        platform_ids: [18],
        release_year: 1987,
        release_date: '1987-01-14',
        age_pegi: 2,
      },
    ],
    [
      'pokemon-red',
      {
        name: 'Pokémon Red',
        popularity: 80,
        genre_ids: [12],
        platform_ids: [33],
        release_year: 1996,
        release_date: '1996-02-27',
        interface_languages: ['ja'],
        audio_languages: [],
      },
    ],
    [
      'half-life-2',
      {
        name: 'Half-Life 2',
        popularity: 70,
        genre_ids: [5],
        platform_ids: [6, 14],
        engine_ids: [400],
        publisher_ids: [57],
        developer_ids: [56],
        store_url: 'https://store.example/app/220',
        demo_available: true,
        rating: 95,
        rating_count: 40,
        weighted_rating: 90,
        review_count: 3,
        library_count: 50,
        interface_languages: ['en', 'en-US', 'pt', 'pt-BR'],
        audio_languages: ['en', 'en-US'],
        age_pegi: 3,
        age_esrb: 4,
        hours_main: 13,
        franchise_ids: [77],
        series_ids: [88],
        release_year: 2004,
        release_date: '2004-11-16',
        trending: 5,
      },
    ],
    [
      'half-life-2-remaster',
      {
        name: 'Half-Life 2: Remastered',
        type: 9,
        popularity: 20,
        genre_ids: [5],
        release_year: 2024,
        release_date: '2024-03-01',
        hype: 3,
      },
    ],
    ['half-life-dlc', { name: 'Half-Life: Extra Pack', type: 1, popularity: 30, genre_ids: [5] }],
    [
      'portal',
      {
        name: 'Portal',
        popularity: 60,
        genre_ids: [5, 12],
        developer_ids: [56],
        publisher_ids: [56],
        rating: 88,
        rating_count: 10,
        weighted_rating: 85,
        subtitle_languages: ['pt', 'pt-PT'],
        hours_main: 3,
        status: 'released',
        release_year: 2007,
        release_date: '2007-10-10',
        trending: 50,
      },
    ],
    [
      'upcoming-epic',
      {
        name: 'Upcoming Epic',
        popularity: 5,
        hype: 500,
        release_date: daysFromToday(40),
        release_year: Number(daysFromToday(40).slice(0, 4)),
      },
    ],
    [
      'recent-indie',
      {
        name: 'Recent Indie',
        popularity: 2,
        release_date: daysFromToday(-10),
        release_year: Number(daysFromToday(-10).slice(0, 4)),
        status: 'early_access',
      },
    ],
    [
      'cancelled-thing',
      { name: 'Cancelled Thing', popularity: 3, status: 'cancelled', release_date: null, release_year: null },
    ],
    ['obscure-gem', { name: 'Obscure Gem', popularity: 0 }],
    // Three lesser-known games of 1950 (shown with obscure=1), where hideCancelled changes the answer.
    ['vintage-racer', { name: 'Vintage Racer', popularity: 0, release_year: 1950, release_date: '1950-05-01' }],
    [
      'lost-prototype',
      { name: 'Lost Prototype', popularity: 0, status: 'cancelled', release_year: 1950, release_date: null },
    ],
    [
      'whispered-sequel',
      { name: 'Whispered Sequel', popularity: 0, status: 'rumored', release_year: 1950, release_date: null },
    ],
  ];
  const ids: Record<string, number> = {};
  for (const [slug, fields] of rows) ids[slug] = await game(slug, fields);
  return ids;
}

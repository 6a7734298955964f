// The demo catalog without a database: the dat reader on inline samples, title cleaning and merging, and
// enrichment that gives the same rows for the same titles, with unique slugs even past the real titles.
import { expect } from 'chai';
import { AGE_BOARDS, AGE_STEPS } from '../../shared/catalog/age-ratings.js';
import { parseDat } from '../../db/seeds/catalog/dat-parser.js';
import { DemoCatalog } from '../../db/seeds/catalog/enrich.js';
import {
  cleanTitle,
  platformName,
  slugify,
  TitleCollector,
  type DemoTitle,
} from '../../db/seeds/catalog/gametime-titles.js';
import { Random } from '../../db/seeds/catalog/random.js';

const NO_INTRO = [
  'clrmamepro (',
  '\tname "Nintendo - Super Nintendo Entertainment System"',
  '\tversion 20150215-231121',
  '\tcomment "no-intro | www.no-intro.org"',
  ')',
  '',
  'game (',
  '\tname "[BIOS] CX4 (World)"',
  '\trom ( name "[BIOS] CX4 (World).bin" size 3072 crc B6E76A6A )',
  ')',
  '',
  'game (',
  '\tname "Legend of Zelda, The - A Link to the Past (USA)"',
  '\tdescription "Legend of Zelda, The - A Link to the Past (USA)"',
  '\trom ( name "Legend of Zelda, The - A Link to the Past (USA).sfc" size 1048576 crc 777AAC2F )',
  ')',
  '',
  'game (',
  '\tname "Legend of Zelda, The - A Link to the Past (Europe) (Rev 1) [!]"',
  '\trom ( name "x\\y.sfc" size 1048576 )',
  ')',
].join('\r\n');

const RELEASE_YEARS = `clrmamepro (
	name "Nintendo Super Nintendo Entertainment System"
)
game (
	name "Legend of Zelda, The - A Link to the Past (Europe) (Rev 1) [!]"
	releaseyear "1992"
	rom (
		crc 777AAC2F
	)
)
game (
	name "Legend of Zelda, The - A Link to the Past (USA)"
	releaseyear 1991
	rom ( crc 777AAC2F )
)`;

const SNES = 'Nintendo - Super Nintendo Entertainment System';

describe('demo catalog: dat files', () => {
  it('reads clrmamepro blocks: quoted and bare values, nested blocks, CRLF, backslashes kept', () => {
    const blocks = parseDat(NO_INTRO);
    expect(blocks.map((block) => block.kind)).to.deep.equal(['clrmamepro', 'game', 'game', 'game']);
    expect(blocks[0].values).to.deep.equal({
      name: [SNES],
      version: ['20150215-231121'],
      comment: ['no-intro | www.no-intro.org'],
    });
    expect(blocks[2].values.description).to.deep.equal(['Legend of Zelda, The - A Link to the Past (USA)']);
    expect(blocks[2].blocks[0]).to.deep.include({ kind: 'rom' });
    expect(blocks[2].blocks[0].values).to.deep.include({ size: ['1048576'], crc: ['777AAC2F'] });
    expect(blocks[3].blocks[0].values.name).to.deep.equal(['x\\y.sfc']);
  });

  it('keeps every value of a repeated key and survives truncated input', () => {
    const [game] = parseDat('game ( name "Bubsy" franchise "Bubsy" franchise "Platformers" rom ( crc 1');
    expect(game.values).to.deep.equal({ name: ['Bubsy'], franchise: ['Bubsy', 'Platformers'] });
    expect(game.blocks[0].values).to.deep.equal({ crc: ['1'] });
    expect(parseDat(') ) game ( name "A" ) stray')).to.have.length(1);
    expect(parseDat('')).to.deep.equal([]);
  });
});

describe('demo catalog: titles', () => {
  it('cleans entry names into titles', () => {
    expect(cleanTitle('Legend of Zelda, The - A Link to the Past (Europe) (Rev 1) [!]')).to.equal(
      'The Legend of Zelda: A Link to the Past',
    );
    expect(cleanTitle('Super Mario World (USA)')).to.equal('Super Mario World');
    expect(cleanTitle('1941: Counter Attack (World 900227)')).to.equal('1941: Counter Attack');
    expect(cleanTitle('100,000 Pyramid, The (USA, Europe)')).to.equal('The 100,000 Pyramid');
    expect(cleanTitle('Doom (v1.2, shareware (Sybex))')).to.equal('Doom');
    expect(cleanTitle('Mario & Luigi - Superstar Saga (USA) (En,Fr,De)')).to.equal('Mario & Luigi: Superstar Saga');
    expect(cleanTitle('[BIOS] CX4 (World)')).to.equal(null);
    expect(cleanTitle('(Unknown) [b]')).to.equal(null);
  });

  it('names platforms after the dat files', () => {
    expect(platformName(SNES)).to.equal(SNES);
    expect(platformName('Nintendo - Nintendo DS (Download Play) (BETA)')).to.equal('Nintendo - Nintendo DS');
    expect(platformName('Nintendo - Nintendo DS Decrypted')).to.equal('Nintendo - Nintendo DS');
    expect(platformName('MAME')).to.equal('Arcade');
  });

  it('slugs are lowercase letters, digits and single hyphens', () => {
    expect(slugify('Pokémon: Blue & Red')).to.equal('pokemon-blue-and-red');
    expect(slugify("  James 'Buster' Douglas -- Knockout!! ")).to.equal('james-buster-douglas-knockout');
  });

  it('merges entries across regions and platforms, with the earliest year and the first developer', () => {
    const collector = new TitleCollector();
    collector.addGames(SNES, NO_INTRO);
    collector.addGames(
      'Nintendo - Nintendo Wii (DLC)',
      'game ( name "Legend of Zelda, The - A Link to the Past (USA) (Virtual Console)" ) ' +
        'game ( name "Pack, A (World) (Addon)" )',
    );
    collector.addMetadata('releaseyear', SNES, RELEASE_YEARS);
    collector.addMetadata(
      'developer',
      SNES,
      'game ( name "Legend of Zelda, The - A Link to the Past (USA)" developer "Nintendo EAD" )',
    );
    expect(collector.result()).to.deep.equal([
      {
        key: 'a-pack',
        name: 'A Pack',
        year: null,
        developer: null,
        publisher: null,
        franchise: null,
        platforms: ['Nintendo - Nintendo Wii'],
        dlc: true,
      },
      {
        key: 'the-legend-of-zelda-a-link-to-the-past',
        name: 'The Legend of Zelda: A Link to the Past',
        year: 1991,
        developer: 'Nintendo EAD',
        publisher: null,
        franchise: null,
        platforms: ['Nintendo - Nintendo Wii', SNES],
        dlc: false,
      },
    ]);
  });
});

/** Made-up titles in the extractor's shape, the same each run. */
function titles(count: number): DemoTitle[] {
  const random = new Random('titles');
  const words = ['Star', 'Dragon', 'Quest', 'Racer', 'Ninja', 'Soccer', 'Mahjong', 'Castle', 'Blaster', 'Doom'];
  const out = new Map<string, DemoTitle>();
  while (out.size < count) {
    const name = `${random.pick(words)} ${random.pick(words)}${random.chance(0.3) ? ' II' : ''}`;
    const key = slugify(name);
    out.set(key, {
      key,
      name,
      year: random.chance(0.5) ? random.int(1980, 2013) : null,
      developer: random.chance(0.5) ? random.pick(['Konami', 'Capcom', 'Sega']) : null,
      publisher: null,
      franchise: null,
      platforms: [random.pick(['Arcade', 'Sony - PlayStation', 'Nintendo - Game Boy'])],
      dlc: random.chance(0.1),
    });
  }
  return [...out.values()];
}

const STATUSES = ['released', 'alpha', 'beta', 'early_access', 'offline', 'cancelled', 'rumored', 'delisted'];

describe('demo catalog: enrichment', () => {
  const source = titles(40);

  it('gives the same rows and facet ids for the same titles, whatever their input order', () => {
    const first = [...new DemoCatalog(source).games(300)];
    const second = [...new DemoCatalog([...source].reverse()).games(300)];
    expect(second).to.deep.equal(first);
  });

  it('is a prefix of a larger catalog', () => {
    const small = [...new DemoCatalog(source).games(25)];
    const large = [...new DemoCatalog(source).games(200)];
    expect(large.slice(0, 25)).to.deep.equal(small);
  });

  it('expands past the real titles with unique slugs and rows inside the schema', () => {
    const rows = [...new DemoCatalog(source).games(1000)];
    expect(rows).to.have.length(1000);
    expect(new Set(rows.map((row) => row.slug)).size).to.equal(1000);
    for (const row of rows) {
      expect(row.slug).to.match(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(row.type).to.be.within(0, 14);
      expect(STATUSES).to.include(row.status);
      if (row.release_year !== null) expect(row.release_year).to.be.within(1950, 2100);
      if (row.release_date) expect(Number(row.release_date.slice(0, 4))).to.equal(row.release_year);
      if (row.rating !== null) expect(row.rating).to.be.within(0, 100);
      for (const board of AGE_BOARDS) {
        const step = row[`age_${board}`];
        if (step !== null) expect(step).to.be.within(0, AGE_STEPS[board].length - 1);
      }
    }
    const synthetic = rows.slice(source.length);
    for (const row of synthetic) {
      expect(row.release_date === null).to.equal(row.release_year === null);
      expect(row.interface_languages).to.include('en');
    }
    expect(synthetic.filter((row) => row.type === 0).length).to.be.greaterThan(500);
  });

  it('keeps a real title to what its source says, and makes nothing up for it', () => {
    const zelda: DemoTitle = {
      key: 'the-legend-of-zelda-a-link-to-the-past',
      name: 'The Legend of Zelda: A Link to the Past',
      year: 1991,
      developer: 'Nintendo',
      publisher: 'Nintendo',
      franchise: 'The Legend of Zelda',
      platforms: ['Nintendo - Super Nintendo Entertainment System'],
      dlc: false,
    };
    const catalog = new DemoCatalog([zelda]);
    const [real, ...followUps] = [...catalog.games(4)];
    expect(real).to.deep.include({
      slug: zelda.key,
      name: zelda.name,
      release_year: 1991,
      release_date: null,
      type: 0,
      status: 'released',
      genre_ids: [],
      theme_ids: [],
      mode_ids: [],
      perspective_ids: [],
      engine_ids: [],
      rating: null,
      rating_count: 0,
      weighted_rating: null,
      popularity: 0,
      hype: 0,
      hours_main: null,
      store_url: null,
      demo_available: false,
      interface_languages: [],
      audio_languages: [],
      subtitle_languages: [],
      // The source has no cover images.
      cover_image_id: null,
    });
    for (const board of AGE_BOARDS) expect(real[`age_${board}`], board).to.equal(null);
    expect(real.platform_ids).to.have.length(1);
    expect(real.developer_ids).to.deep.equal(real.publisher_ids).and.have.length(1);
    expect(real.franchise_ids).to.have.length(1);
    // What is made up goes on follow-ups that say so in their name.
    for (const row of followUps) {
      expect(row.name).to.match(/^The Legend of Zelda: A Link to the Past.* \(synthetic\)$/);
      expect(row.slug).to.match(/-synthetic(-\d+)?$/);
      expect(row.genre_ids.length).to.be.greaterThan(0);
      // A made-up cover would be some real game's image.
      expect(row).to.have.property('cover_image_id', null);
    }
  });

  it('never gives a made-up follow-up a real title’s name or slug', () => {
    const doom = (year: number | null): DemoTitle[] => [
      { ...source[0], key: 'doom', name: 'Doom', year, dlc: false },
      { ...source[0], key: 'doom-ii', name: 'Doom II', year: year && year + 1, dlc: false },
    ];
    for (const year of [1993, null]) {
      const rows = [...new DemoCatalog(doom(year)).games(40)];
      expect(rows.filter((row) => row.name === 'Doom II').map((row) => row.slug)).to.deep.equal(['doom-ii']);
      expect(rows.filter((row) => row.name === 'Doom II (synthetic)')).to.have.length(1);
      expect(new Set(rows.map((row) => row.slug)).size).to.equal(40);
    }
  });
});

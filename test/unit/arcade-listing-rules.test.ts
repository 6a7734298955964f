// The store page draft (spec arcade.md: Store page draft, all fields required): every field's accepted and
// refused values, the field a refusal names (first in the table's order), and reserved words.
import { expect } from 'chai';
import { ISO_3166_ALPHA2 } from '../../shared/arcade/data/iso-3166.js';
import {
  checkListing,
  hasReservedWord,
  hasServiceName,
  LISTING_FIELDS,
  shownAgeRating,
} from '../../shared/arcade/listing-rules.js';
import { ApiError } from '../../shared/platform/errors.js';

function draft(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Corrida Estelar',
    tagline: 'Corra entre as estrelas',
    description: { default_locale: 'pt-BR', 'pt-BR': 'Um jogo de corrida.', en: '', es: '' },
    tags: ['racing', 'arcade'],
    age_rating: '10',
    orientation: 'landscape',
    platforms: ['desktop', 'mobile'],
    privacy_url: 'https://estrela.games/privacidade',
    terms_url: null,
    support_url: 'https://estrela.games/ajuda',
    controller_name: 'Estrela Jogos Ltda.',
    controller_country: 'BR',
    privacy_contact: 'privacidade@estrela.games',
    ...overrides,
  };
}

function description(overrides: Record<string, unknown>): Record<string, unknown> {
  return { ...(draft().description as Record<string, unknown>), ...overrides };
}

function refusedField(body: unknown): string {
  try {
    checkListing(body);
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    const answer = (error as ApiError).body().error;
    expect((error as ApiError).status).to.equal(400);
    expect(answer).to.include({ code: 'invalid_request', reason: 'fields_invalid' });
    return answer.field!;
  }
  throw new Error('expected a refusal');
}

describe('Arcade store page draft rules', () => {
  it('accepts a complete draft and returns it as stored', () => {
    expect(checkListing(draft())).to.deep.equal(draft());
  });

  describe('accepted values', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a name of 2 characters', { name: 'Go' }],
      ['a name of 40 characters, counted in code points', { name: '🚀'.repeat(40) }],
      ['an accented name', { name: 'Ação Total' }],
      ['an empty tagline', { tagline: '' }],
      ['a tagline of 80 characters', { tagline: 'a'.repeat(80) }],
      ['no tags', { tags: [] }],
      ['five tags', { tags: ['action', 'puzzle', 'retro', 'tower-defense', 'visual-novel'] }],
      ['age rating L', { age_rating: 'L' }],
      ['age rating 16', { age_rating: '16' }],
      ['orientation any', { orientation: 'any' }],
      ['orientation portrait', { orientation: 'portrait' }],
      ['only mobile', { platforms: ['mobile'] }],
      ['a terms URL', { terms_url: 'https://estrela.games/termos' }],
      ['URLs with a query and an anchor', { privacy_url: 'https://estrela.games/p?lang=pt#dados' }],
      ['a privacy URL on a non-443 port', { privacy_url: 'https://estrela.games:8443/p' }],
      ['a controller name of 120 characters', { controller_name: 'x'.repeat(120) }],
      ['another country', { controller_country: 'PT' }],
      ['an https privacy contact', { privacy_contact: 'https://estrela.games/contato' }],
      ['a plus-addressed privacy contact', { privacy_contact: 'dpo+jogos@estrela.com.br' }],
      ['a privacy contact of 254 characters', { privacy_contact: `${'a'.repeat(240)}@estrela.games` }],
      ['English as the default language', { description: description({ default_locale: 'en', en: 'A race.' }) }],
      ['2000 characters of description', { description: description({ es: 'ñ'.repeat(2000) }) }],
      ['line breaks in a description', { description: description({ 'pt-BR': 'Linha 1\nLinha 2\r\n\tFim' }) }],
    ];
    for (const [what, overrides] of cases) {
      it(`accepts ${what}`, () => expect(() => checkListing(draft(overrides))).not.to.throw());
    }
  });

  describe('refusals name the field', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a name of 1 character', { name: 'G' }, 'name'],
      ['a name of 41 characters', { name: 'a'.repeat(41) }, 'name'],
      ['a name with a space at the end', { name: 'Corrida ' }, 'name'],
      ['a name with a space at the start', { name: ' Corrida' }, 'name'],
      ['a name with a zero-width space', { name: 'Cor\u200brida' }, 'name'],
      ['a name with a bidi override', { name: 'Corrida\u202e' }, 'name'],
      ['a name with a newline', { name: 'Cor\nrida' }, 'name'],
      ['a number as name', { name: 42 }, 'name'],
      ['a tagline of 81 characters', { tagline: 'a'.repeat(81) }, 'tagline'],
      ['a null tagline', { tagline: null }, 'tagline'],
      ['a description that is a string', { description: 'Um jogo' }, 'description'],
      [
        'an unknown default language',
        { description: description({ default_locale: 'pt' }) },
        'description.default_locale',
      ],
      ['an empty default text', { description: description({ 'pt-BR': '' }) }, 'description.pt-BR'],
      ['a blank default text', { description: description({ 'pt-BR': ' \n ' }) }, 'description.pt-BR'],
      ['a text of 2001 characters', { description: description({ en: 'a'.repeat(2001) }) }, 'description.en'],
      [
        'a missing language',
        { description: { default_locale: 'pt-BR', 'pt-BR': 'Um jogo.', en: '' } },
        'description.es',
      ],
      ['a text that is not a string', { description: description({ es: null }) }, 'description.es'],
      ['a NUL character in a text', { description: description({ en: 'a\u0000b' }) }, 'description.en'],
      ['another language', { description: description({ fr: 'Un jeu.' }) }, 'description.fr'],
      ['six tags', { tags: ['action', 'puzzle', 'retro', 'racing', 'rpg', 'word'] }, 'tags'],
      ['tags that are a string', { tags: 'racing' }, 'tags'],
      ['a tag outside the list', { tags: ['racing', 'arcade', 'mmo'] }, 'tags.2'],
      ['a repeated tag', { tags: ['racing', 'racing'] }, 'tags.1'],
      ['a tag in capitals', { tags: ['Racing'] }, 'tags.0'],
      ['age rating 18', { age_rating: '18' }, 'age_rating'],
      ['age rating as a number', { age_rating: 10 }, 'age_rating'],
      ['orientation sideways', { orientation: 'sideways' }, 'orientation'],
      ['no platforms', { platforms: [] }, 'platforms'],
      ['an unknown platform', { platforms: ['desktop', 'console'] }, 'platforms.1'],
      ['a repeated platform', { platforms: ['mobile', 'mobile'] }, 'platforms.1'],
      ['an http privacy URL', { privacy_url: 'http://estrela.games/p' }, 'privacy_url'],
      ['a privacy URL with credentials', { privacy_url: 'https://a:b@estrela.games/p' }, 'privacy_url'],
      ['a privacy URL of 513 characters', { privacy_url: `https://estrela.games/${'p'.repeat(491)}` }, 'privacy_url'],
      ['a privacy URL that is not a URL', { privacy_url: 'estrela.games' }, 'privacy_url'],
      ['a privacy URL with a space', { privacy_url: 'https://estrela.games/a b' }, 'privacy_url'],
      ['an empty terms URL', { terms_url: '' }, 'terms_url'],
      ['an http terms URL', { terms_url: 'http://estrela.games/t' }, 'terms_url'],
      ['a mailto support URL', { support_url: 'mailto:ajuda@estrela.games' }, 'support_url'],
      ['a controller name of 1 character', { controller_name: 'E' }, 'controller_name'],
      ['a controller name of 121 characters', { controller_name: 'x'.repeat(121) }, 'controller_name'],
      ['a country in lower case', { controller_country: 'br' }, 'controller_country'],
      ['a three-letter country', { controller_country: 'BRA' }, 'controller_country'],
      ['a reserved country code', { controller_country: 'EU' }, 'controller_country'],
      ['a user-assigned country code', { controller_country: 'XK' }, 'controller_country'],
      ['a privacy contact that is neither', { privacy_contact: 'privacidade' }, 'privacy_contact'],
      ['an http privacy contact', { privacy_contact: 'http://estrela.games/c' }, 'privacy_contact'],
      [
        'a privacy contact of 255 characters',
        { privacy_contact: `${'a'.repeat(241)}@estrela.games` },
        'privacy_contact',
      ],
      [
        'an https contact of 255 characters',
        { privacy_contact: `https://estrela.games/${'c'.repeat(233)}` },
        'privacy_contact',
      ],
    ];
    for (const [what, overrides, field] of cases) {
      it(`refuses ${what} (${field})`, () => expect(refusedField(draft(overrides))).to.equal(field));
    }
  });

  describe('required and unknown fields', () => {
    for (const field of LISTING_FIELDS) {
      it(`refuses a draft without ${field}`, () => {
        const body = draft();
        delete body[field];
        expect(refusedField(body)).to.equal(field);
      });
    }

    it('refuses an unknown field by its name', () => expect(refusedField(draft({ slug: 'x' }))).to.equal('slug'));

    it('names the first refused field in the table order, a missing one included', () => {
      const body = draft({ tags: ['mmo'], orientation: 'sideways' });
      delete body.privacy_contact;
      expect(refusedField(body)).to.equal('tags.0');
      expect(refusedField(draft({ name: 'x', extra: 1 }))).to.equal('name');
    });

    it('refuses a body that is not an object', () => {
      expect(refusedField(null)).to.equal('body');
      expect(refusedField([draft()])).to.equal('body');
    });
  });

  describe('reserved words', () => {
    const reservedNames = [
      'Jogatina Racer',
      'JOGATINA',
      'Official Racer',
      'Racer (official)',
      'Ofícial Racer',
      'Support Desk',
      'Suporte Técnico',
      'Soporte',
      'Equipe Oficial',
      'staff picks',
      'The Admin',
      'moderator-sim',
      'Racer_official',
      'Оfficial Racer',
      'аdmin panel',
      '0fficial Racer',
      'Jogatına',
    ];
    for (const name of reservedNames) {
      it(`refuses the name ${JSON.stringify(name)} as name_reserved`, () => {
        expect(refusedField(draft({ name }))).to.equal('name_reserved');
      });
    }

    it('refuses a reserved word in the tagline as tagline_reserved', () => {
      expect(refusedField(draft({ tagline: 'The official racing game' }))).to.equal('tagline_reserved');
    });

    it('checks the name before the tagline', () => {
      expect(refusedField(draft({ name: 'Staff Racer', tagline: 'official' }))).to.equal('name_reserved');
    });

    const freeNames = ['Supporting Cast', 'Adminstrator Sim', 'Officially Fun', 'Stafford', 'Moderators'];
    for (const name of freeNames) {
      it(`accepts ${JSON.stringify(name)}: official, support and the like only as whole words`, () => {
        expect(hasReservedWord(name)).to.equal(false);
        expect(() => checkListing(draft({ name }))).not.to.throw();
      });
    }
  });

  describe('the service’s own name, inside a word too', () => {
    // Each folds to "jogatina" (or to "JOGATINA" as capitals fold): case, accents, compatibility forms,
    // look-alike letters of other scripts, digits and symbols that pass for letters, and separators inside
    // the word.
    const containing: Array<[string, string]> = [
      ['Jogatinas', 'a plural'],
      ['JogatinaRacer', 'a compound word'],
      ['SuperJogatina', 'the name at the end of a word'],
      ['J0gatina', 'a zero for the O'],
      ['JOGAT1NA', 'a one for the I'],
      ['Jogat|na', 'a bar for the i'],
      ['JOGATlNA', 'a small l for the capital I'],
      ['Jögätinä', 'accents'],
      ['ｊｏｇａｔｉｎａ', 'full-width letters'],
      ['Jogatına', 'a dotless i'],
      ['JOGAТINA', 'a Cyrillic capital Te'],
      ['ЈОGАТІNА', 'Cyrillic capitals for J, O, A, T and I'],
      ['JOGATIΝA', 'a Greek capital Nu'],
      ['jоgаtinа', 'Cyrillic small o and a'],
      ['Joga-tina', 'a hyphen inside'],
      ['J.O.G.A.T.I.N.A.', 'dots between the letters'],
      ['Joga_Tina_Online', 'underscores inside'],
    ];
    for (const [name, what] of containing) {
      it(`refuses ${JSON.stringify(name)} (${what}) as name_reserved, and in the tagline as tagline_reserved`, () => {
        expect(hasServiceName(name)).to.equal(true);
        expect(refusedField(draft({ name }))).to.equal('name_reserved');
        expect(refusedField(draft({ tagline: `Play ${name} tonight` }))).to.equal('tagline_reserved');
      });
    }

    it('says which rule refused it', () => {
      try {
        checkListing(draft({ name: 'JogatinaRacer' }));
        expect.fail('expected a refusal');
      } catch (error) {
        expect((error as ApiError).message).to.match(/Jogatina, even inside a word/);
      }
    });

    // The name across two words, or only part of it, is other words; so are Portuguese words near it.
    const other = ['Joga Tina', 'Jogos da Tina', 'Jogatin', 'Jog atina Racer', 'Jogada Final', 'Tina Joga'];
    for (const name of other) {
      it(`accepts ${JSON.stringify(name)}`, () => {
        expect(hasServiceName(name)).to.equal(false);
        expect(checkListing(draft({ name })).name).to.equal(name);
      });
    }
  });

  describe('normalisation', () => {
    it('stores texts in NFC and counts the composed characters', () => {
      const decomposed = 'Ac\u0327a\u0303o';
      expect(checkListing(draft({ name: decomposed })).name).to.equal('Ação');
      expect(() => checkListing(draft({ name: `${'e\u0301'.repeat(40)}` }))).not.to.throw();
    });

    it('stores URLs as the URL standard writes them', () => {
      const stored = checkListing(
        draft({ privacy_url: 'HTTPS://Estrela.Games/p/../privacidade', terms_url: 'https://bücher.de' }),
      );
      expect(stored.privacy_url).to.equal('https://estrela.games/privacidade');
      expect(stored.terms_url).to.equal('https://xn--bcher-kva.de/');
    });
  });

  it('ships the 249 officially assigned ISO 3166-1 alpha-2 codes', () => {
    expect(ISO_3166_ALPHA2.size).to.equal(249);
    for (const code of ['BR', 'PT', 'US', 'AQ', 'SS', 'BQ', 'CW', 'SX', 'AX'])
      expect(ISO_3166_ALPHA2.has(code)).to.equal(true);
  });
});

describe('the age rating players are shown', () => {
  it('is the stricter of the approved and the submitted rating: a higher one at once, a lower one after review', () => {
    expect(shownAgeRating('10', null)).to.equal('10');
    expect(shownAgeRating('10', undefined)).to.equal('10');
    expect(shownAgeRating('10', '16')).to.equal('16');
    expect(shownAgeRating('L', '10')).to.equal('10');
    expect(shownAgeRating('14', '12')).to.equal('14');
    expect(shownAgeRating('16', 'L')).to.equal('16');
    expect(shownAgeRating('12', '12')).to.equal('12');
    expect(shownAgeRating('12', '18')).to.equal('12');
  });
});

// The release body (spec arcade.md: Release, input fields, all required): accepted bodies as stored, and
// each refusal with its reason (fields_invalid, url_invalid, url_denied, data_events_url_required), field
// and detail.
import { expect } from 'chai';
import { checkRelease, RELEASE_FIELDS } from '../../shared/arcade/release-rules.js';
import { ApiError } from '../../shared/platform/errors.js';

/** The URL rules as production runs them: no test door. */
const noDoor = { testHosts: null };

function release(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    entry_url: 'https://play.estrela.games/v3/',
    capabilities: [],
    scopes: [],
    orientation: 'any',
    platforms: ['desktop'],
    third_parties: [],
    data_events_url: null,
    notes: '',
    ...overrides,
  };
}

function refusal(body: unknown): Record<string, unknown> {
  try {
    checkRelease(body, noDoor);
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(400);
    const answer = (error as ApiError).body().error as unknown as Record<string, unknown>;
    expect(answer.code).to.equal('invalid_request');
    return answer;
  }
  throw new Error('expected a refusal');
}

const party = (origin: string, purpose = 'Fonts') => ({ origin, purpose });

describe('Arcade release rules', () => {
  it('accepts the smallest release and adds entry_origin', () => {
    expect(checkRelease(release(), noDoor)).to.deep.equal({
      entry_url: 'https://play.estrela.games/v3/',
      entry_origin: 'https://play.estrela.games',
      capabilities: [],
      scopes: [],
      orientation: 'any',
      platforms: ['desktop'],
      third_parties: [],
      data_events_url: null,
      notes: '',
    });
  });

  it('accepts a full release and stores it normalised with ASCII hosts', () => {
    const stored = checkRelease(
      release({
        entry_url: 'HTTPS://Bücher.DE:443/spiel/./index.html',
        capabilities: ['background-audio', 'pointer-lock'],
        scopes: ['identify'],
        orientation: 'portrait',
        platforms: ['mobile', 'desktop'],
        third_parties: [party('https://cdn.gamefonts.net/'), party('https://ｓｔａｔｓ.estrela.games', 'Statistics')],
        data_events_url: 'https://api.estrela.games/jogatina/events',
        notes: 'Segunda versão.\nCorrige o placar.',
      }),
      noDoor,
    );
    expect(stored).to.deep.equal({
      entry_url: 'https://xn--bcher-kva.de/spiel/index.html',
      entry_origin: 'https://xn--bcher-kva.de',
      capabilities: ['background-audio', 'pointer-lock'],
      scopes: ['identify'],
      orientation: 'portrait',
      platforms: ['mobile', 'desktop'],
      third_parties: [
        { origin: 'https://cdn.gamefonts.net', purpose: 'Fonts' },
        { origin: 'https://stats.estrela.games', purpose: 'Statistics' },
      ],
      data_events_url: 'https://api.estrela.games/jogatina/events',
      notes: 'Segunda versão.\nCorrige o placar.',
    });
  });

  describe('accepted values', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['one capability', { capabilities: ['pointer-lock'] }],
      ['an events URL without identify', { data_events_url: 'https://api.estrela.games/e' }],
      [
        'an events URL on another origin and path',
        { scopes: ['identify'], data_events_url: 'https://hooks.other.net/x' },
      ],
      ['landscape', { orientation: 'landscape' }],
      [
        '20 third parties',
        { third_parties: Array.from({ length: 20 }, (_, i) => party(`https://cdn${i}.estrela.games`)) },
      ],
      ['a purpose of 200 characters', { third_parties: [party('https://cdn.gamefonts.net', 'p'.repeat(200))] }],
      ['notes of 2000 characters', { notes: 'n'.repeat(2000) }],
    ];
    for (const [what, overrides] of cases) {
      it(`accepts ${what}`, () => expect(() => checkRelease(release(overrides), noDoor)).not.to.throw());
    }
  });

  describe('refusals', () => {
    const cases: Array<[string, Record<string, unknown>, string, string, string?]> = [
      ['entry_url as a number', { entry_url: 7 }, 'fields_invalid', 'entry_url'],
      ['an http entry URL', { entry_url: 'http://play.estrela.games/' }, 'url_invalid', 'entry_url'],
      ['an entry URL on port 8443', { entry_url: 'https://play.estrela.games:8443/' }, 'url_invalid', 'entry_url'],
      ['an entry URL with a query', { entry_url: 'https://play.estrela.games/?v=3' }, 'url_invalid', 'entry_url'],
      ['an entry URL with a fragment', { entry_url: 'https://play.estrela.games/#v3' }, 'url_invalid', 'entry_url'],
      [
        'an entry URL of 513 characters',
        { entry_url: `https://estrela.games/${'a'.repeat(491)}` },
        'url_invalid',
        'entry_url',
      ],
      ['an entry URL on an address', { entry_url: 'https://203.0.113.9/' }, 'url_denied', 'entry_url', 'ip_literal'],
      ['an entry URL on .local', { entry_url: 'https://estrela.local/' }, 'url_denied', 'entry_url', 'not_public'],
      [
        'an entry URL of invalid punycode',
        { entry_url: 'https://xn--a.games/' },
        'url_denied',
        'entry_url',
        'idn_invalid',
      ],
      ['an entry URL of look-alikes', { entry_url: 'https://аррӏе.com/' }, 'url_denied', 'entry_url', 'idn_confusable'],
      ['an entry URL of mixed scripts', { entry_url: 'https://bücherж.de/' }, 'url_denied', 'entry_url', 'idn_script'],
      ['capabilities as a string', { capabilities: 'pointer-lock' }, 'fields_invalid', 'capabilities'],
      ['an unknown capability', { capabilities: ['pointer-lock', 'camera'] }, 'fields_invalid', 'capabilities.1'],
      ['a repeated capability', { capabilities: ['pointer-lock', 'pointer-lock'] }, 'fields_invalid', 'capabilities.1'],
      ['an unknown scope', { scopes: ['email'] }, 'fields_invalid', 'scopes.0'],
      ['identify twice', { scopes: ['identify', 'identify'] }, 'fields_invalid', 'scopes'],
      ['scopes as null', { scopes: null }, 'fields_invalid', 'scopes'],
      ['an unknown orientation', { orientation: 'square' }, 'fields_invalid', 'orientation'],
      ['no platforms', { platforms: [] }, 'fields_invalid', 'platforms'],
      ['an unknown platform', { platforms: ['tv'] }, 'fields_invalid', 'platforms.0'],
      ['third_parties as an object', { third_parties: {} }, 'fields_invalid', 'third_parties'],
      [
        '21 third parties',
        { third_parties: Array.from({ length: 21 }, (_, i) => party(`https://cdn${i}.estrela.games`)) },
        'fields_invalid',
        'third_parties',
      ],
      [
        'a third party that is a string',
        { third_parties: ['https://cdn.gamefonts.net'] },
        'fields_invalid',
        'third_parties.0',
      ],
      [
        'a third party without origin',
        { third_parties: [{ purpose: 'Fonts' }] },
        'fields_invalid',
        'third_parties.0.origin',
      ],
      [
        'a third party without purpose',
        { third_parties: [{ origin: 'https://cdn.gamefonts.net' }] },
        'fields_invalid',
        'third_parties.0.purpose',
      ],
      [
        'a third party with another member',
        { third_parties: [{ ...party('https://cdn.gamefonts.net'), kind: 'font' }] },
        'fields_invalid',
        'third_parties.0.kind',
      ],
      [
        'an origin as a number',
        { third_parties: [party(443 as unknown as string)] },
        'fields_invalid',
        'third_parties.0.origin',
      ],
      [
        'an origin with a path',
        { third_parties: [party('https://cdn.gamefonts.net'), party('https://cdn.x.net/a.js')] },
        'url_invalid',
        'third_parties.1.origin',
      ],
      [
        'an http origin',
        { third_parties: [party('http://cdn.gamefonts.net')] },
        'url_invalid',
        'third_parties.0.origin',
      ],
      [
        'an origin on an address',
        { third_parties: [party('https://[2001:db8::5]')] },
        'url_denied',
        'third_parties.0.origin',
        'ip_literal',
      ],
      [
        'an origin of look-alikes',
        { third_parties: [party('https://gοogle.com')] },
        'url_denied',
        'third_parties.0.origin',
        'idn_confusable',
      ],
      [
        'the same origin twice',
        { third_parties: [party('https://cdn.gamefonts.net'), party('https://CDN.gamefonts.net/')] },
        'fields_invalid',
        'third_parties.1.origin',
      ],
      [
        'an empty purpose',
        { third_parties: [party('https://cdn.gamefonts.net', '')] },
        'fields_invalid',
        'third_parties.0.purpose',
      ],
      [
        'a purpose of 201 characters',
        { third_parties: [party('https://cdn.gamefonts.net', 'p'.repeat(201))] },
        'fields_invalid',
        'third_parties.0.purpose',
      ],
      ['identify without an events URL', { scopes: ['identify'] }, 'data_events_url_required', 'data_events_url'],
      ['an events URL as a number', { data_events_url: 1 }, 'fields_invalid', 'data_events_url'],
      ['an http events URL', { data_events_url: 'http://api.estrela.games/e' }, 'url_invalid', 'data_events_url'],
      [
        'an events URL with a query',
        { data_events_url: 'https://api.estrela.games/e?k=1' },
        'url_invalid',
        'data_events_url',
      ],
      [
        'an events URL on localhost',
        { data_events_url: 'https://localhost/e' },
        'url_denied',
        'data_events_url',
        'not_public',
      ],
      [
        'an events URL on a decimal address',
        { data_events_url: 'https://3232235777/e' },
        'url_denied',
        'data_events_url',
        'ip_literal',
      ],
      ['notes of 2001 characters', { notes: 'n'.repeat(2001) }, 'fields_invalid', 'notes'],
      ['notes as null', { notes: null }, 'fields_invalid', 'notes'],
      ['a NUL in the notes', { notes: 'a\u0000' }, 'fields_invalid', 'notes'],
      ['an unknown field', { status: 'approved' }, 'fields_invalid', 'status'],
    ];
    for (const [what, overrides, reason, field, detail] of cases) {
      it(`refuses ${what} (${reason} ${field}${detail ? ` ${detail}` : ''})`, () => {
        const answer = refusal(release(overrides));
        expect(answer).to.include({ reason, field });
        if (detail) expect(answer.detail).to.equal(detail);
        else expect(answer).not.to.have.property('detail');
      });
    }
  });

  describe('required fields and order', () => {
    for (const field of RELEASE_FIELDS) {
      it(`refuses a release without ${field}`, () => {
        const body = release();
        delete body[field];
        expect(refusal(body)).to.include({ reason: 'fields_invalid', field });
      });
    }

    it('refuses a body that is not an object', () => {
      expect(refusal('https://play.estrela.games/')).to.include({ reason: 'fields_invalid', field: 'body' });
    });

    it('names the first refused field in the table order', () => {
      expect(refusal(release({ entry_url: 'http://x.games/', notes: null }))).to.include({ field: 'entry_url' });
      expect(refusal(release({ orientation: 'x', scopes: ['identify'] }))).to.include({ field: 'orientation' });
      const body = release({ platforms: [], extra: true });
      delete body.notes;
      expect(refusal(body)).to.include({ field: 'platforms' });
    });

    it('asks for the events URL only once the fields before it pass', () => {
      const body = release({ scopes: ['identify'], third_parties: [party('https://cdn.x.net', '')] });
      expect(refusal(body)).to.include({ reason: 'fields_invalid', field: 'third_parties.0.purpose' });
    });
  });
});

// Arcade's URL rules (spec arcade.md: Release entry_url and data_events_url, third parties, Development URL):
// each accepted form with what it normalises to, each refusal with its exact reason, field and detail.
import { expect } from 'chai';
import {
  checkGameUrl,
  checkOverrideUrl,
  checkThirdPartyOrigin,
  type UrlRuleSettings,
} from '../../shared/arcade/url-rules.js';
import { ApiError } from '../../shared/platform/errors.js';

/** The error body a refusal answers, or a failure when the call passed. */
function refusal(call: () => unknown): Record<string, unknown> {
  try {
    call();
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(400);
    return (error as ApiError).body().error as unknown as Record<string, unknown>;
  }
  throw new Error('expected a refusal');
}

function expectRefusal(call: () => unknown, reason: string, field: string, detail?: string): void {
  const body = refusal(call);
  expect(body).to.include({ code: 'invalid_request', reason, field });
  if (detail === undefined) expect(body).not.to.have.property('detail');
  else expect(body.detail).to.equal(detail);
}

/** The rules as production runs them: no test door. */
const noDoor: UrlRuleSettings = { testHosts: null };

describe('Arcade URL rules', () => {
  describe('checkGameUrl: accepted URLs and what they become', () => {
    const cases: Array<[string, string, string, string]> = [
      ['https://mygame.com', 'https://mygame.com/', 'https://mygame.com', 'mygame.com'],
      [
        'https://play.mygame.com/game/index.html',
        'https://play.mygame.com/game/index.html',
        'https://play.mygame.com',
        'play.mygame.com',
      ],
      [
        'HTTPS://Play.MyGame.COM:443/a/./b/../c/',
        'https://play.mygame.com/a/c/',
        'https://play.mygame.com',
        'play.mygame.com',
      ],
      ['https://bücher.de/spiel/', 'https://xn--bcher-kva.de/spiel/', 'https://xn--bcher-kva.de', 'bücher.de'],
      ['https://xn--bcher-kva.de/', 'https://xn--bcher-kva.de/', 'https://xn--bcher-kva.de', 'bücher.de'],
      [
        'https://ｍｙｇａｍｅ.com/jogo/índice.html',
        'https://mygame.com/jogo/%C3%ADndice.html',
        'https://mygame.com',
        'mygame.com',
      ],
      ['https://ソニーstore.jp/', 'https://xn--store-8q4drd9r.jp/', 'https://xn--store-8q4drd9r.jp', 'ソニーstore.jp'],
      ['https://games.co.uk/a%20b', 'https://games.co.uk/a%20b', 'https://games.co.uk', 'games.co.uk'],
    ];
    for (const [input, url, origin, unicodeHost] of cases) {
      it(`accepts ${input}`, () => {
        const host = origin.slice('https://'.length);
        expect(checkGameUrl(input, 'entry_url', noDoor)).to.deep.equal({ url, origin, host, unicodeHost });
      });
    }
  });

  describe('checkGameUrl: url_invalid (malformed, not https, port, query, fragment, credentials, length)', () => {
    const cases: Array<[string, unknown]> = [
      ['not a string', 42],
      ['empty', ''],
      ['no scheme', 'mygame.com/play'],
      ['scheme-relative', '//mygame.com/'],
      ['https without //', 'https:mygame.com'],
      ['https with one /', 'https:/mygame.com/'],
      ['http', 'http://mygame.com/'],
      ['another scheme', 'wss://mygame.com/'],
      ['another port', 'https://mygame.com:8443/'],
      ['port 80', 'https://mygame.com:80/'],
      ['an empty port', 'https://mygame.com:/'],
      ['a port out of range', 'https://mygame.com:99999/'],
      ['a query', 'https://mygame.com/play?level=1'],
      ['an empty query', 'https://mygame.com/?'],
      ['a fragment', 'https://mygame.com/#start'],
      ['an empty fragment', 'https://mygame.com/#'],
      ['a user name', 'https://player@mygame.com/'],
      ['a user name and password', 'https://player:secret@mygame.com/'],
      ['a backslash', 'https://mygame.com\\play'],
      ['a space inside', 'https://mygame.com/my game'],
      ['a space around', ' https://mygame.com/'],
      ['a tab', 'https://mygame.com/\tplay'],
      ['no host', 'https:///play'],
      ['two colons in the host', 'https://a:1:2/'],
      ['an unclosed bracket', 'https://[::1/'],
      ['an underscore in the host', 'https://my_game.com/'],
      ['a percent sign in the host', 'https://my%67ame.com/'],
      ['a wildcard host', 'https://*.mygame.com/'],
      ['513 characters', `https://mygame.com/${'a'.repeat(494)}`],
      ['more than 512 once percent-encoded', `https://mygame.com/${'é'.repeat(100)}`],
    ];
    for (const [what, input] of cases) {
      it(`refuses ${what}`, () =>
        expectRefusal(() => checkGameUrl(input, 'entry_url', noDoor), 'url_invalid', 'entry_url'));
    }

    it('accepts exactly 512 characters', () => {
      expect(checkGameUrl(`https://mygame.com/${'a'.repeat(493)}`, 'entry_url', noDoor).url).to.have.length(512);
    });
  });

  describe('checkGameUrl: url_denied with detail', () => {
    const cases: Array<[string, string, string]> = [
      ['dotted IPv4', 'https://1.2.3.4/', 'ip_literal'],
      ['IPv4 with port 443', 'https://8.8.8.8:443/', 'ip_literal'],
      ['decimal IPv4', 'https://2130706433/', 'ip_literal'],
      ['hex IPv4', 'https://0x7f000001/', 'ip_literal'],
      ['hex and dotted', 'https://0x7f.0.0.1/', 'ip_literal'],
      ['octal IPv4', 'https://0177.0.0.1/', 'ip_literal'],
      ['short IPv4', 'https://127.1/', 'ip_literal'],
      ['IPv4 in full-width digits', 'https://１２７．０．０．１/', 'ip_literal'],
      ['IPv6 loopback', 'https://[::1]/', 'ip_literal'],
      ['IPv6', 'https://[2001:db8::1]/', 'ip_literal'],
      ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]:443/', 'ip_literal'],
      ['localhost', 'https://localhost/', 'not_public'],
      ['a name under .localhost', 'https://game.localhost/', 'not_public'],
      ['.local', 'https://game.local/', 'not_public'],
      ['.internal', 'https://game.internal/', 'not_public'],
      ['.test', 'https://game.test/', 'not_public'],
      ['.example', 'https://game.example/', 'not_public'],
      ['.invalid', 'https://game.invalid/', 'not_public'],
      ['.onion', 'https://game.onion/', 'not_public'],
      ['.home.arpa', 'https://game.home.arpa/', 'not_public'],
      ['example.com', 'https://www.example.com/', 'not_public'],
      ['a single label', 'https://mygame/', 'not_public'],
      ['a top-level name with a digit', 'https://mygame.c0m/', 'not_public'],
      ['invalid punycode', 'https://xn--a.com/', 'idn_invalid'],
      ['hyphens in positions 3 and 4', 'https://ab--c.com/', 'idn_invalid'],
      ['a leading hyphen', 'https://-game.com/', 'idn_invalid'],
      ['a trailing hyphen', 'https://game-.com/', 'idn_invalid'],
      ['an empty label', 'https://game..com/', 'idn_invalid'],
      ['a trailing dot', 'https://mygame.com./', 'idn_invalid'],
      ['a zero-width joiner', 'https://my\u200dgame.com/', 'idn_invalid'],
      ['Cyrillic look-alikes of apple', 'https://аррӏе.com/', 'idn_confusable'],
      ['their punycode', 'https://xn--80ak6aa92e.com/', 'idn_confusable'],
      ['Cyrillic раураl', 'https://раураl.com/', 'idn_confusable'],
      ['a Greek omicron in a Latin name', 'https://gοogle.com/', 'idn_confusable'],
      ['Latin mixed with Cyrillic', 'https://bücherж.de/', 'idn_script'],
    ];
    for (const [what, input, detail] of cases) {
      it(`refuses ${what} (${detail})`, () => {
        expectRefusal(() => checkGameUrl(input, 'data_events_url', noDoor), 'url_denied', 'data_events_url', detail);
      });
    }
  });

  describe('the outbound guard’s test door', () => {
    it('takes a name the door sends to a local stand-in as public, and only that name', () => {
      const door: UrlRuleSettings = { testHosts: { 'dev.jogatina.test': '127.0.0.1:8443' } };
      expect(checkGameUrl('https://dev.jogatina.test/', 'entry_url', door).origin).to.equal(
        'https://dev.jogatina.test',
      );
      expectRefusal(
        () => checkGameUrl('https://dev.jogatina.test/', 'entry_url', noDoor),
        'url_denied',
        'entry_url',
        'not_public',
      );
      expectRefusal(
        () => checkGameUrl('https://other.jogatina.test/', 'entry_url', door),
        'url_denied',
        'entry_url',
        'not_public',
      );
    });
  });

  describe('internationalized host names switched off (ARCADE_IDN_HOSTS=refuse): detail idn', () => {
    const refusing: UrlRuleSettings = { testHosts: null, idnHosts: 'refuse' };
    const accepting: UrlRuleSettings = { testHosts: null, idnHosts: 'accept' };
    const internationalized: Array<[string, string]> = [
      ['a Unicode label', 'https://bücher.de/spiel/'],
      ['its punycode', 'https://xn--bcher-kva.de/spiel/'],
      ['punycode in capitals', 'https://XN--BCHER-KVA.de/'],
      ['a Unicode top-level name', 'https://jogos.xn--p1ai/'],
      ['Japanese with Latin', 'https://ソニーstore.jp/'],
      // While such names are refused, that is the answer even for those the IDN rules would refuse.
      ['look-alikes of apple', 'https://аррӏе.com/'],
      ['invalid punycode', 'https://xn--a.com/'],
      ['mixed scripts', 'https://bücherж.de/'],
    ];
    for (const [what, input] of internationalized) {
      it(`refuses ${what} for entry_url and data_events_url`, () => {
        expectRefusal(() => checkGameUrl(input, 'entry_url', refusing), 'url_denied', 'entry_url', 'idn');
        expectRefusal(() => checkGameUrl(input, 'data_events_url', refusing), 'url_denied', 'data_events_url', 'idn');
      });
    }

    it('accepts the same names when switched on, as when the setting is left out', () => {
      const expected = checkGameUrl('https://bücher.de/spiel/', 'entry_url', noDoor);
      expect(checkGameUrl('https://bücher.de/spiel/', 'entry_url', accepting)).to.deep.equal(expected);
      expect(expected.url).to.equal('https://xn--bcher-kva.de/spiel/');
      expect(
        checkOverrideUrl('https://bücher.de:4443/', { serviceHost: 'jogatina.com.br', ...accepting }).host,
      ).to.equal('xn--bcher-kva.de:4443');
      expectRefusal(
        () => checkGameUrl('https://аррӏе.com/', 'entry_url', accepting),
        'url_denied',
        'entry_url',
        'idn_confusable',
      );
    });

    it('still accepts ASCII names, full-width ASCII included (it maps to plain ASCII)', () => {
      expect(checkGameUrl('https://play.mygame.com/', 'entry_url', refusing).origin).to.equal(
        'https://play.mygame.com',
      );
      expect(checkGameUrl('https://ｍｙｇａｍｅ.com/', 'entry_url', refusing).origin).to.equal('https://mygame.com');
    });

    it('answers the rules before it first: an address is ip_literal, a malformed URL url_invalid', () => {
      expectRefusal(
        () => checkGameUrl('https://１２７．０．０．１/', 'entry_url', refusing),
        'url_denied',
        'entry_url',
        'ip_literal',
      );
      expectRefusal(() => checkGameUrl('http://bücher.de/', 'entry_url', refusing), 'url_invalid', 'entry_url');
    });

    it('refuses a third party’s origin, naming the entry', () => {
      expectRefusal(
        () => checkThirdPartyOrigin('https://bücher.de', 'third_parties.2.origin', refusing),
        'url_denied',
        'third_parties.2.origin',
        'idn',
      );
    });

    it('refuses a development URL on a public host or on the owner’s machine, naming url', () => {
      const service = { serviceHost: 'jogatina.com.br', ...refusing };
      expectRefusal(() => checkOverrideUrl('https://bücher.de:4443/', service), 'url_denied', 'url', 'idn');
      expectRefusal(() => checkOverrideUrl('http://jôgo.localhost:5173/', service), 'url_denied', 'url', 'idn');
      expect(checkOverrideUrl('http://jogo.localhost:5173/', service).loopback).to.equal(true);
      expect(checkOverrideUrl('http://127.0.0.1:5173/', service).loopback).to.equal(true);
    });
  });

  describe('checkThirdPartyOrigin', () => {
    const accepted: Array<[string, string]> = [
      ['https://cdn.gamefonts.net', 'https://cdn.gamefonts.net'],
      ['https://cdn.gamefonts.net/', 'https://cdn.gamefonts.net'],
      ['https://CDN.GameFonts.net:443', 'https://cdn.gamefonts.net'],
      ['https://bücher.de', 'https://xn--bcher-kva.de'],
    ];
    for (const [input, origin] of accepted) {
      it(`accepts ${input} as ${origin}`, () => {
        expect(checkThirdPartyOrigin(input, 'third_parties.0.origin', noDoor)).to.deep.equal({
          origin,
          host: origin.slice('https://'.length),
        });
      });
    }

    const refused: Array<[string, string, string | undefined]> = [
      ['https://cdn.gamefonts.net/fonts.css', 'url_invalid', undefined],
      ['https://cdn.gamefonts.net/?v=1', 'url_invalid', undefined],
      ['http://cdn.gamefonts.net', 'url_invalid', undefined],
      ['https://cdn.gamefonts.net:8443', 'url_invalid', undefined],
      ['https://*.gamefonts.net', 'url_invalid', undefined],
      ['https://10.0.0.1', 'url_denied', 'ip_literal'],
      ['https://fonts.local', 'url_denied', 'not_public'],
      ['https://аррӏе.com', 'url_denied', 'idn_confusable'],
    ];
    for (const [input, reason, detail] of refused) {
      it(`refuses ${input} (${detail ?? reason}) naming the entry`, () => {
        expectRefusal(
          () => checkThirdPartyOrigin(input, 'third_parties.3.origin', noDoor),
          reason,
          'third_parties.3.origin',
          detail,
        );
      });
    }
  });

  describe('checkOverrideUrl: the owner machine and public hosts', () => {
    const service = { serviceHost: 'jogatina.com.br', ...noDoor };
    const accepted: Array<[string, string, string, string, boolean]> = [
      ['http://localhost:5173/game/', 'http://localhost:5173/game/', 'http://localhost:5173', 'localhost:5173', true],
      ['http://LOCALHOST', 'http://localhost/', 'http://localhost', 'localhost', true],
      ['https://localhost:8443/', 'https://localhost:8443/', 'https://localhost:8443', 'localhost:8443', true],
      [
        'http://game.localhost:3000/',
        'http://game.localhost:3000/',
        'http://game.localhost:3000',
        'game.localhost:3000',
        true,
      ],
      ['http://a.b.localhost/', 'http://a.b.localhost/', 'http://a.b.localhost', 'a.b.localhost', true],
      ['http://127.0.0.1:8080/play', 'http://127.0.0.1:8080/play', 'http://127.0.0.1:8080', '127.0.0.1:8080', true],
      [
        'https://dev.mygame.com:8443/play',
        'https://dev.mygame.com:8443/play',
        'https://dev.mygame.com:8443',
        'dev.mygame.com:8443',
        false,
      ],
      ['https://dev.mygame.com:443/', 'https://dev.mygame.com/', 'https://dev.mygame.com', 'dev.mygame.com', false],
      [
        'https://bücher.de:4443/',
        'https://xn--bcher-kva.de:4443/',
        'https://xn--bcher-kva.de:4443',
        'xn--bcher-kva.de:4443',
        false,
      ],
    ];
    for (const [input, url, origin, host, loopback] of accepted) {
      it(`accepts ${input} (loopback ${loopback})`, () => {
        const hostname = host.replace(/:\d+$/, '');
        expect(checkOverrideUrl(input, service)).to.deep.equal({ url, origin, host, hostname, loopback });
      });
    }

    const refused: Array<[string, string, string | undefined]> = [
      ['http://dev.mygame.com/', 'url_invalid', undefined],
      ['ftp://localhost/', 'url_invalid', undefined],
      ['http://localhost:5173/?debug=1', 'url_invalid', undefined],
      ['http://localhost:5173/#canvas', 'url_invalid', undefined],
      ['http://dev:pw@localhost:5173/', 'url_invalid', undefined],
      ['http://localhost:0/', 'url_invalid', undefined],
      [`http://localhost/${'a'.repeat(496)}`, 'url_invalid', undefined],
      ['http://[::1]:5173/', 'url_denied', 'ip_literal'],
      ['http://127.0.0.2/', 'url_denied', 'ip_literal'],
      ['http://127.1:5173/', 'url_denied', 'ip_literal'],
      ['http://2130706433/', 'url_denied', 'ip_literal'],
      ['http://192.168.1.20:8080/', 'url_denied', 'ip_literal'],
      ['https://203.0.113.7/', 'url_denied', 'ip_literal'],
      ['https://game.local/', 'url_denied', 'not_public'],
      ['https://intranet:8443/', 'url_denied', 'not_public'],
      ['https://аррӏе.com/', 'url_denied', 'idn_confusable'],
      ['http://-game.localhost/', 'url_denied', 'idn_invalid'],
      ['https://jogatina.com.br/', 'url_denied', 'service_host'],
      ['https://JOGATINA.com.br:8443/', 'url_denied', 'service_host'],
      ['https://games.jogatina.com.br/', 'url_denied', 'service_host'],
    ];
    for (const [input, reason, detail] of refused) {
      it(`refuses ${input} (${detail ?? reason}) on field url`, () => {
        expectRefusal(() => checkOverrideUrl(input, service), reason, 'url', detail);
      });
    }

    it('on a service opened on the owner machine, refuses only its own port, under any loopback name', () => {
      const local = { serviceHost: 'localhost:3000', ...noDoor };
      expectRefusal(() => checkOverrideUrl('http://localhost:3000/', local), 'url_denied', 'url', 'service_host');
      expectRefusal(() => checkOverrideUrl('http://127.0.0.1:3000/', local), 'url_denied', 'url', 'service_host');
      expectRefusal(() => checkOverrideUrl('http://game.localhost:3000/', local), 'url_denied', 'url', 'service_host');
      expect(checkOverrideUrl('http://localhost:5173/', local).loopback).to.equal(true);
      expect(checkOverrideUrl('https://dev.mygame.com:3000/', local).loopback).to.equal(false);
    });

    it('reads a service host without a port as the default ports', () => {
      const bare = { serviceHost: 'localhost', ...noDoor };
      expectRefusal(() => checkOverrideUrl('http://localhost/', bare), 'url_denied', 'url', 'service_host');
      expectRefusal(() => checkOverrideUrl('https://localhost/', bare), 'url_denied', 'url', 'service_host');
      expect(checkOverrideUrl('http://localhost:8080/', bare).host).to.equal('localhost:8080');
    });
  });
});

// Internationalized host names (spec arcade.md, the paragraph on internationalized names): UTS 46 through
// tr46, the mixed-script policy of Chromium's IDN display, and UTS 39 skeletons against ASCII names.
import { expect } from 'chai';
import { ASCII_PROTOTYPES, CONFUSABLES_VERSION } from '../../shared/arcade/data/confusables-ascii.js';
import {
  browserMappedHostname,
  passesForAscii,
  processHostname,
  scriptMixAllowed,
  scriptsOf,
  skeleton,
} from '../../shared/arcade/idn.js';

describe('Arcade IDN rules', () => {
  describe('accepted names, with their ASCII and Unicode forms', () => {
    const cases: Array<[string, string, string, string]> = [
      ['a plain Latin IDN', 'bücher.de', 'xn--bcher-kva.de', 'bücher.de'],
      ['its punycode, decoded and judged the same', 'xn--bcher-kva.de', 'xn--bcher-kva.de', 'bücher.de'],
      ['punycode in capitals', 'XN--BCHER-KVA.DE', 'xn--bcher-kva.de', 'bücher.de'],
      [
        'an ASCII name, folded to lower case',
        'Games.Example-Studio.COM',
        'games.example-studio.com',
        'games.example-studio.com',
      ],
      ['full-width letters, mapped by UTS 46', 'ｍｙｇａｍｅ.com', 'mygame.com', 'mygame.com'],
      ['an ideographic full stop, mapped to a dot', 'bücher。de', 'xn--bcher-kva.de', 'bücher.de'],
      ['ß kept (nontransitional processing)', 'faß.de', 'xn--fa-hia.de', 'faß.de'],
      ['Japanese: Latin with Katakana', 'ソニーstore.jp', 'xn--store-8q4drd9r.jp', 'ソニーstore.jp'],
      ['Japanese: Han, Hiragana and Katakana', '日本のゲーム.jp', 'xn--u9j8g8ele7750acvb.jp', '日本のゲーム.jp'],
      ['Chinese: Latin with Han', 'abc中文.cn', 'xn--abc-x68do18h.cn', 'abc中文.cn'],
      ['Korean: Latin with Hangul', '한국abc.kr', 'xn--abc-lt8lk11n.kr', '한국abc.kr'],
      ['a Cyrillic name that is not made of look-alikes', 'яндекс.рф', 'xn--d1acpjx3f.xn--p1ai', 'яндекс.рф'],
      ['a Cyrillic name under бг, whose skeleton alone reads 6r', 'сайт.бг', 'xn--80aswg.xn--90ae', 'сайт.бг'],
      ['Greek letters that do not all imitate Latin', 'αβγ.gr', 'xn--mxacd.gr', 'αβγ.gr'],
      ['a Catalan middle dot between two l', 'col·lecció.cat', 'xn--collecci-ioa91d.cat', 'col·lecció.cat'],
      ['a katakana middle dot in Japanese text', 'ゲーム・ワールド.jp', 'xn--sck3b8czbt5efd.jp', 'ゲーム・ワールド.jp'],
      ['Latin digits and hyphens with a Cyrillic word', 'игра-24.ru', 'xn---24-5cdo3a1d.ru', 'игра-24.ru'],
    ];
    for (const [what, name, ascii, unicode] of cases) {
      it(`accepts ${what}: ${name}`, () => {
        expect(processHostname(name)).to.deep.equal({ ok: true, ascii, unicode });
      });
    }
  });

  describe('idn_invalid: UTS 46 with hyphen, bidi, joiner, STD3 and DNS length rules', () => {
    const cases: Array<[string, string]> = [
      ['xn--a with punycode that decodes to nothing valid', 'xn--a.com'],
      ['punycode of an all-ASCII label', 'xn--abc-.com'],
      ['hyphens in positions 3 and 4 that are not xn--', 'ab--c.com'],
      ['a leading hyphen', '-game.com'],
      ['a trailing hyphen', 'game-.com'],
      ['an empty label', 'game..com'],
      ['a trailing dot (the root label is empty)', 'game.com.'],
      ['a leading dot', '.game.com'],
      ['a zero-width joiner between Latin letters', 'ga\u200dme.com'],
      ['a zero-width non-joiner between Latin letters', 'ga\u200cme.com'],
      ['an underscore (STD3)', 'my_game.com'],
      ['a label of 64 characters', `${'a'.repeat(64)}.com`],
      ['a name of more than 253 characters', `${'abcdefghi.'.repeat(26)}com`],
      ['a label that starts with a combining mark', '\u0301game.com'],
      ['a right-to-left label with a Latin letter (bidi rule)', '\u05d0a.com'],
      ['a symbol that UTS 46 keeps but IDNA 2008 refuses', 'game\u2665.com'],
      ['an emoji', 'game\u{1f3ae}.com'],
      ['a Catalan middle dot outside l·l', 'a\u00b7b.cat'],
      ['a katakana middle dot without Japanese text', 'ab\u30fbcd.jp'],
    ];
    for (const [what, name] of cases) {
      it(`refuses ${what}`, () => {
        expect(processHostname(name)).to.deep.equal({ ok: false, detail: 'idn_invalid' });
      });
    }
  });

  describe('idn_confusable: a label whose skeleton is that of an ASCII label', () => {
    const cases: Array<[string, string]> = [
      ['Cyrillic аррӏе (apple)', 'аррӏе.com'],
      ['its punycode', 'xn--80ak6aa92e.com'],
      ['Cyrillic раураl with a Latin l (paypal)', 'раураl.com'],
      ['a Greek omicron in a Latin name (google)', 'gοogle.com'],
      ['Greek letters that all imitate Latin (opa)', 'ορα.gr'],
      ['a dotless ı in a Latin name (ibm)', 'ıbm.com'],
      ['a Latin script g in a Latin name', 'ɡame.com'],
      ['Cyrillic look-alikes with digits', 'аре2024.com'],
      ['a look-alike label below the first', 'play.аррӏе.com'],
      ['an ASCII name under a top-level name that reads as ASCII', 'mygame.бг'],
    ];
    for (const [what, name] of cases) {
      it(`refuses ${what}`, () => {
        expect(processHostname(name)).to.deep.equal({ ok: false, detail: 'idn_confusable' });
      });
    }
  });

  describe('idn_script: scripts mixed in one label beyond the East Asian sets', () => {
    const cases: Array<[string, string]> = [
      ['Latin with Cyrillic', 'bücherж.de'],
      ['Latin with a Greek omicron, where an accent keeps it from imitating ASCII', 'bücοher.de'],
      ['Latin with Greek', 'gameλ.com'],
      ['Cyrillic with Greek', 'играλ.com'],
      ['Latin with Thai', 'gameไทย.com'],
      ['Latin with Georgian', 'gameდ.com'],
      ['Hangul with Katakana', '한국カタカナ.com'],
      ['Bopomofo with Hiragana', 'ㄅㄆひらがな.com'],
      ['Latin with Han, Hangul and Hiragana all at once', 'a中한ひ.com'],
    ];
    for (const [what, name] of cases) {
      it(`refuses ${what}`, () => {
        expect(processHostname(name)).to.deep.equal({ ok: false, detail: 'idn_script' });
      });
    }
  });

  describe('skeletons (UTS 39) over the shipped data', () => {
    it('maps look-alikes to their ASCII prototypes', () => {
      expect(skeleton('аррӏе')).to.equal('appie');
      expect(skeleton('gοogle')).to.equal('google');
      expect(skeleton('0')).to.equal('O');
      expect(skeleton('m')).to.equal('rn');
    });

    it('keeps what cannot pass for ASCII, decomposed (NFD)', () => {
      expect(skeleton('bü')).to.equal('bu\u0308');
      expect(passesForAscii('bücher')).to.equal(false);
    });

    it('drops default-ignorable characters', () => {
      expect(skeleton('a\u00adb')).to.equal('ab');
    });

    it('tells labels made only of look-alikes from the rest', () => {
      expect(passesForAscii('аррӏе')).to.equal(true);
      expect(passesForAscii('яндекс')).to.equal(false);
      expect(passesForAscii('plain-ascii-42')).to.equal(true);
    });

    it('ships data from a named Unicode version, Latin, Cyrillic and Greek look-alikes included', () => {
      expect(CONFUSABLES_VERSION).to.match(/^\d+\.\d+\.\d+$/);
      expect(ASCII_PROTOTYPES.a).to.include('\u0430').and.include('\u0251').and.include('\u03b1');
      expect(ASCII_PROTOTYPES.o).to.include('\u043e').and.include('\u03bf');
      expect(ASCII_PROTOTYPES.i).to.include('\u0131');
    });

    it('maps look-alikes of capitals too (store page names are read in capitals), leaving labels as they were', () => {
      // Cyrillic Те and Greek Tau pass for T, Greek Nu for N, only in capitals.
      expect(skeleton('\u0422\u03a4\u039d')).to.equal('TTN');
      // Their small letters do not pass for ASCII, so a host label of them still does not either.
      expect(passesForAscii('\u0442\u03c4')).to.equal(false);
    });
  });

  describe('scripts', () => {
    it('reads Script_Extensions, with Common and Inherited going with any script', () => {
      expect([...scriptsOf('a')!]).to.deep.equal(['Latn']);
      expect([...scriptsOf('ж')!]).to.deep.equal(['Cyrl']);
      expect([...scriptsOf('ー')!].sort()).to.deep.equal(['Hira', 'Kana']);
      expect(scriptsOf('7')).to.equal(null);
      expect(scriptsOf('-')).to.equal(null);
    });

    it('allows one script, or Latin with the Japanese, Chinese or Korean sets', () => {
      expect(scriptMixAllowed('игра')).to.equal(true);
      expect(scriptMixAllowed('ゲームabc')).to.equal(true);
      expect(scriptMixAllowed('中文ㄅabc')).to.equal(true);
      expect(scriptMixAllowed('한국어中文abc')).to.equal(true);
      expect(scriptMixAllowed('abcж')).to.equal(false);
    });
  });

  describe('the browser mapping used to spot addresses', () => {
    it('maps full-width digits and dots as the URL standard does', () => {
      expect(browserMappedHostname('１２７．０．０．１')).to.equal('127.0.0.1');
      expect(browserMappedHostname('Game.COM')).to.equal('game.com');
    });
  });
});

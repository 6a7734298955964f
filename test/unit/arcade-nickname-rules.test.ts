// A player's nickname (spec arcade.md: PATCH /account/arcade/grants/{appId}): 2 to 32 characters after NFC,
// no space at either end, and nothing invisible or formatting, judged by Unicode property.
import { expect } from 'chai';
import { checkNickname } from '../../shared/arcade/nickname-rules.js';
import { ApiError } from '../../shared/platform/errors.js';

function refusalOf(value: unknown): unknown {
  try {
    checkNickname(value);
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    const { code, members } = error as ApiError;
    return [code, members.reason, members.field];
  }
  return null;
}

const REFUSED = ['invalid_request', 'nickname_invalid', 'nickname'];

describe('nickname rules', () => {
  it('accepts letters, digits, inner spaces, accents, other scripts and emoji', () => {
    for (const nickname of [
      'Zoë',
      'Pilota Zoë',
      'ab',
      'x'.repeat(32),
      'Дмитрий',
      '李小龍',
      'رائد',
      'Ace 🎮',
      'a\u3000b',
    ]) {
      expect(checkNickname(nickname), nickname).to.equal(nickname);
    }
  });

  it('counts characters after NFC, not UTF-16 units', () => {
    expect(checkNickname('Zoe\u0308')).to.equal('Zoë');
    expect(checkNickname('🎮'.repeat(16))).to.have.length(32);
    expect(refusalOf('🎮'.repeat(33))).to.deep.equal(REFUSED);
    expect(refusalOf('e\u0301')).to.deep.equal(REFUSED);
  });

  it('refuses what is not a string, too short, too long, or spaced at either end', () => {
    for (const value of [
      undefined,
      null,
      42,
      ['ab'],
      'a',
      '',
      'x'.repeat(33),
      ' lead',
      'trail ',
      '\u00a0nbsp',
      'ideo\u3000',
    ]) {
      expect(refusalOf(value), JSON.stringify(value)).to.deep.equal(REFUSED);
    }
  });

  it('refuses every invisible and format character by property, not only a hand-picked few', () => {
    const invisible: Record<string, string> = {
      'soft hyphen': '\u00ad',
      'combining grapheme joiner': '\u034f',
      'Mongolian vowel separator': '\u180e',
      'Hangul filler': '\u3164',
      'Hangul choseong filler': '\u115f',
      'halfwidth Hangul filler': '\uffa0',
      'Khmer vowel inherent': '\u17b4',
      'Arabic letter mark': '\u061c',
      'zero width space': '\u200b',
      'zero width non-joiner': '\u200c',
      'zero width joiner': '\u200d',
      'left-to-right mark': '\u200e',
      'right-to-left override': '\u202e',
      'word joiner': '\u2060',
      'invisible times': '\u2062',
      'first strong isolate': '\u2068',
      'byte order mark': '\ufeff',
      'variation selector 16': '\ufe0f',
      'variation selector 17': '\u{e0100}',
      'tag latin a': '\u{e0041}',
      'interlinear annotation anchor': '\ufff9',
      'Arabic number sign': '\u0600',
      'shorthand format control': '\u{1bca0}',
      null: '\u0000',
      tab: '\t',
      'line feed': '\n',
      delete: '\u007f',
      'C1 control': '\u0085',
      'line separator': '\u2028',
      'paragraph separator': '\u2029',
      'lone surrogate': '\ud800',
    };
    for (const [name, ch] of Object.entries(invisible)) {
      expect(refusalOf(`ab${ch}cd`), name).to.deep.equal(REFUSED);
    }
  });
});

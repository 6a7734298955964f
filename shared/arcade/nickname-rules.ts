// A player's nickname for a game (spec: PATCH /account/arcade/grants/{appId}): what a game shows other
// players, so nothing in it may be invisible or change how the text around it reads.
import { invalidRequest } from '../platform/errors.js';

export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 32;

/**
 * Characters a nickname refuses, by Unicode property rather than a hand list, so every invisible or
 * format character is caught (soft hyphen U+00AD, combining grapheme joiner U+034F, Mongolian vowel
 * separator U+180E, fillers, variation selectors, tags): default-ignorable code points, format (Cf, which
 * holds the bidirectional controls and zero-width characters), controls (Cc), line and paragraph
 * separators, and lone surrogates (which no text store can hold).
 */
const REFUSED = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Cs}]/u;

/** Throws 400 `nickname_invalid` unless 2 to 32 characters (after NFC) without spaces at the ends or invisible ones. */
export function checkNickname(value: unknown): string {
  const refuse = (message: string) => invalidRequest(message, { reason: 'nickname_invalid', field: 'nickname' });
  if (typeof value !== 'string') throw refuse('nickname is required.');
  const nickname = value.normalize('NFC');
  const length = [...nickname].length;
  if (length < NICKNAME_MIN || length > NICKNAME_MAX) throw refuse('A nickname has 2 to 32 characters.');
  if (/^\s|\s$/u.test(nickname)) throw refuse('A nickname cannot start or end with a space.');
  if (REFUSED.test(nickname)) throw refuse('A nickname cannot hold control, format or invisible characters.');
  return nickname;
}

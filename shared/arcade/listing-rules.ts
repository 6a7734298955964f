// The store page draft (spec: "Store page draft (input, all fields required)"), judged field by field in the
// table's order: the first refused field is the one a 400 `fields_invalid` names.
import {
  fieldsInvalid,
  lineText,
  longText,
  objectAt,
  oneOf,
  orientationAt,
  platformsAt,
  refuseUnknownFields,
  requiredField,
  subsetOf,
  type Orientation,
  type Platform,
} from './field-rules.js';
import { ISO_3166_ALPHA2 } from './data/iso-3166.js';
import { skeleton } from './idn.js';

export const LISTING_FIELDS = [
  'name',
  'tagline',
  'description',
  'tags',
  'age_rating',
  'orientation',
  'platforms',
  'privacy_url',
  'terms_url',
  'support_url',
  'controller_name',
  'controller_country',
  'privacy_contact',
] as const;

export const LISTING_LOCALES = ['pt-BR', 'en', 'es'] as const;
export type ListingLocale = (typeof LISTING_LOCALES)[number];

export const LISTING_TAGS = [
  'action',
  'adventure',
  'arcade',
  'board',
  'card',
  'casual',
  'educational',
  'fighting',
  'horror',
  'idle',
  'music',
  'platformer',
  'puzzle',
  'racing',
  'retro',
  'rhythm',
  'roguelike',
  'rpg',
  'sandbox',
  'shooter',
  'simulation',
  'sports',
  'strategy',
  'tower-defense',
  'trivia',
  'visual-novel',
  'word',
] as const;
export type ListingTag = (typeof LISTING_TAGS)[number];

export const AGE_RATINGS = ['L', '10', '12', '14', '16'] as const;
export type AgeRating = (typeof AGE_RATINGS)[number];

/**
 * The age rating players are shown (spec: Store page draft, `age_rating`: "a higher one applies on
 * submission, a lower one waits for review"): the stricter of the approved revision's and the submitted
 * one's, when a revision waits for review. Anything that is not a rating is ignored.
 */
export function shownAgeRating(approved: unknown, submitted: unknown): unknown {
  const rank = (value: unknown) => AGE_RATINGS.indexOf(value as AgeRating);
  return rank(submitted) > rank(approved) ? submitted : approved;
}

export const LISTING_LIMITS = {
  nameMin: 2,
  nameMax: 40,
  taglineMax: 80,
  descriptionMax: 2000,
  tagsMax: 5,
  controllerNameMin: 2,
  controllerNameMax: 120,
  privacyContactMax: 254,
  urlMax: 512,
} as const;

/**
 * Words only staff may use in a name or tagline, as whole words ("Supporting Cast" is another word). The
 * spec's English words come with their Portuguese and Spanish forms: the store is read in all three.
 */
export const RESERVED_WORDS = [
  'official',
  'oficial',
  'support',
  'suporte',
  'soporte',
  'staff',
  'admin',
  'administrator',
  'administrador',
  'moderator',
  'moderador',
] as const;

/**
 * The service's own name (DECISIONS: Jogatina), reserved inside a word too ("JogatinaRacer", "Jogatinas",
 * "J0gatina"): a game named so reads as the service's own, whatever surrounds the name.
 */
export const SERVICE_NAME = 'Jogatina';

export interface ListingDescription {
  default_locale: ListingLocale;
  'pt-BR': string;
  en: string;
  es: string;
}

/** A type, not an interface, so it is a `Record<string, unknown>` for storage as JSON. */
export type ListingDraft = {
  name: string;
  tagline: string;
  description: ListingDescription;
  tags: ListingTag[];
  age_rating: AgeRating;
  orientation: Orientation;
  platforms: Platform[];
  privacy_url: string;
  terms_url: string | null;
  support_url: string;
  controller_name: string;
  controller_country: string;
  privacy_contact: string;
};

/**
 * Accents and compatibility forms (full-width letters) removed, look-alikes replaced by their UTS 39
 * prototype (Cyrillic "а" and "Т", digit "0"), then lower case: "Ofícial", "ADMIN" and "аdmin" all fold
 * to what "official" and "admin" fold to.
 */
function fold(text: string): string {
  return skeleton(text.normalize('NFKD').replace(/\p{M}/gu, '')).toLowerCase();
}

/**
 * Both folds of a text: as written, and lowercased first. They differ where a capital and its small letter
 * have different look-alikes (capital I looks like l, small i does not), so "JOGATINA" matches whether it
 * is read in capitals or not.
 */
function folds(text: string): string[] {
  return [fold(text), fold(text.toLowerCase())];
}

const RESERVED_FOLDED = new Set(RESERVED_WORDS.flatMap((word) => [fold(word), fold(word.toUpperCase())]));

/** The service's name as its small and its capital letters fold ("jogatina", "jogatlna"). */
const SERVICE_NAME_FOLDED = [...new Set([fold(SERVICE_NAME.toLowerCase()), fold(SERVICE_NAME.toUpperCase())])];

/** True when a whole word of `text` is one of RESERVED_WORDS; "Supporting" and "adminsim" are other words. */
function hasReservedWholeWord(text: string): boolean {
  // Split before folding: a separator (space, hyphen, underscore, bracket) ends a word.
  return text
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .some((word) => word !== '' && folds(word).some((folded) => RESERVED_FOLDED.has(folded)));
}

/**
 * True when the service's name is inside a word of `text`. A word here runs from space to space, and what
 * is neither letter nor digit is dropped once look-alikes are folded, so "Joga-tina", "J.O.G.A.T.I.N.A"
 * and "Jogat|na" (a bar for an I) count; the name spread over two words ("Joga Tina") does not.
 */
export function hasServiceName(text: string): boolean {
  return text.split(/\s+/u).some((word) =>
    folds(word).some((folded) => {
      const letters = folded.replace(/[^\p{L}\p{N}]+/gu, '');
      return SERVICE_NAME_FOLDED.some((name) => letters.includes(name));
    }),
  );
}

/** True when `text` uses a reserved word as a whole word or the service's name anywhere in a word. */
export function hasReservedWord(text: string): boolean {
  return hasReservedWholeWord(text) || hasServiceName(text);
}

/**
 * A link for players (privacy policy, terms, support): https, a host, no credentials, up to 512 characters.
 * Deliberately not the game URL rules: these pages may live anywhere, with a query or an anchor.
 */
export function httpsUrlAt(value: unknown, field: string, max: number = LISTING_LIMITS.urlMax): string {
  if (typeof value !== 'string') throw fieldsInvalid(field, `${field} must be an https URL.`);
  if (value.length > max) throw fieldsInvalid(field, `${field} must be at most ${max} characters long.`);
  if (!/^https:\/\/[^\s\\]+$/iu.test(value) || /\p{Cc}/u.test(value)) {
    throw fieldsInvalid(field, `${field} must be an https URL.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fieldsInvalid(field, `${field} must be an https URL.`);
  }
  if (url.hostname === '' || url.username !== '' || url.password !== '') {
    throw fieldsInvalid(field, `${field} must be an https URL with a host and no user name or password.`);
  }
  if (url.href.length > max) throw fieldsInvalid(field, `${field} must be at most ${max} characters long.`);
  return url.href;
}

// The practical address form of HTML's email input (RFC 5322 dot-atoms, a domain with a dot); mail is
// never sent to it by us, it is shown to players.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

function privacyContactAt(value: unknown): string {
  const field = 'privacy_contact';
  const max = LISTING_LIMITS.privacyContactMax;
  if (typeof value !== 'string') throw fieldsInvalid(field, `${field} must be an email address or an https URL.`);
  if (/^https:/i.test(value)) return httpsUrlAt(value, field, max);
  if (value.length > max) throw fieldsInvalid(field, `${field} must be at most ${max} characters long.`);
  if (!EMAIL.test(value)) throw fieldsInvalid(field, `${field} must be an email address or an https URL.`);
  return value;
}

function descriptionAt(value: unknown): ListingDescription {
  const body = objectAt(value, 'description');
  const field = (name: string) => requiredField(body, name, 'description.');
  const defaultLocale = oneOf(field('default_locale'), 'description.default_locale', LISTING_LOCALES);
  const texts = {} as Record<ListingLocale, string>;
  for (const locale of LISTING_LOCALES) {
    texts[locale] = longText(field(locale), `description.${locale}`, LISTING_LIMITS.descriptionMax);
    if (locale === defaultLocale && texts[locale].trim() === '') {
      throw fieldsInvalid(`description.${locale}`, `The text of the default language (${locale}) is empty.`);
    }
  }
  refuseUnknownFields(body, ['default_locale', ...LISTING_LOCALES], 'description.');
  return { default_locale: defaultLocale, ...texts };
}

function countryAt(value: unknown): string {
  // Upper case as ISO writes the codes: "br" is refused rather than guessed at.
  if (typeof value !== 'string' || !ISO_3166_ALPHA2.has(value)) {
    throw fieldsInvalid('controller_country', 'controller_country must be an ISO 3166-1 alpha-2 code, such as BR.');
  }
  return value;
}

function withoutReservedWords(text: string, field: 'name' | 'tagline'): string {
  if (hasReservedWholeWord(text)) {
    throw fieldsInvalid(`${field}_reserved`, `${field} may not use words such as official or support.`);
  }
  if (hasServiceName(text)) {
    throw fieldsInvalid(
      `${field}_reserved`,
      `${field} may not hold the service's name, ${SERVICE_NAME}, even inside a word.`,
    );
  }
  return text;
}

/**
 * Judges a store page draft body and returns it as stored (NFC texts, normalised URLs). Throws 400
 * `invalid_request` reason `fields_invalid` with `field`: the first refused field in the table's order,
 * missing ones included, dotted when nested (`description.en`, `tags.2`); a reserved word gives
 * `name_reserved` or `tagline_reserved`; a field outside the table is named once all of the table passed.
 */
export function checkListing(input: unknown): ListingDraft {
  const body = objectAt(input, 'body');
  const field = (name: (typeof LISTING_FIELDS)[number]) => requiredField(body, name);
  const limits = LISTING_LIMITS;
  const draft: ListingDraft = {
    name: withoutReservedWords(lineText(field('name'), 'name', limits.nameMin, limits.nameMax), 'name'),
    tagline: withoutReservedWords(lineText(field('tagline'), 'tagline', 0, limits.taglineMax), 'tagline'),
    description: descriptionAt(field('description')),
    tags: subsetOf(field('tags'), 'tags', LISTING_TAGS, 0, limits.tagsMax),
    age_rating: oneOf(field('age_rating'), 'age_rating', AGE_RATINGS),
    orientation: orientationAt(field('orientation')),
    platforms: platformsAt(field('platforms')),
    privacy_url: httpsUrlAt(field('privacy_url'), 'privacy_url'),
    terms_url: field('terms_url') === null ? null : httpsUrlAt(body.terms_url, 'terms_url'),
    support_url: httpsUrlAt(field('support_url'), 'support_url'),
    controller_name: lineText(
      field('controller_name'),
      'controller_name',
      limits.controllerNameMin,
      limits.controllerNameMax,
    ),
    controller_country: countryAt(field('controller_country')),
    privacy_contact: privacyContactAt(field('privacy_contact')),
  };
  refuseUnknownFields(body, LISTING_FIELDS);
  return draft;
}

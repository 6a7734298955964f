// The release body (spec: Release, input fields, all required), judged field by field in the table's order.
// A field of the wrong type is `fields_invalid`; a URL that is a string but breaks the URL rules is
// `url_invalid` or `url_denied` (url-rules.ts), as the spec's table says for entry_url.
import { invalidRequest } from '../platform/errors.js';
import {
  fieldsInvalid,
  lineText,
  longText,
  objectAt,
  orientationAt,
  platformsAt,
  refuseUnknownFields,
  requiredField,
  subsetOf,
  type Orientation,
  type Platform,
} from './field-rules.js';
import { checkGameUrl, checkThirdPartyOrigin, type UrlRuleSettings } from './url-rules.js';

export const RELEASE_FIELDS = [
  'entry_url',
  'capabilities',
  'scopes',
  'orientation',
  'platforms',
  'third_parties',
  'data_events_url',
  'notes',
] as const;

export const CAPABILITIES = ['pointer-lock', 'background-audio'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const RELEASE_SCOPES = ['identify'] as const;
export type ReleaseScope = (typeof RELEASE_SCOPES)[number];

export const RELEASE_LIMITS = { thirdPartiesMax: 20, purposeMax: 200, notesMax: 2000 } as const;

export interface ThirdParty {
  /** `https://cdn.example.net`: scheme and ASCII host, no path. */
  origin: string;
  purpose: string;
}

export interface ReleaseInput {
  entry_url: string;
  /** The origin of entry_url: what a submitted release claims for the app. */
  entry_origin: string;
  capabilities: Capability[];
  scopes: ReleaseScope[];
  orientation: Orientation;
  platforms: Platform[];
  third_parties: ThirdParty[];
  data_events_url: string | null;
  notes: string;
}

function stringAt(value: unknown, field: string): string {
  if (typeof value !== 'string') throw fieldsInvalid(field, `${field} must be a string.`);
  return value;
}

function thirdPartiesAt(value: unknown, settings: UrlRuleSettings): ThirdParty[] {
  if (!Array.isArray(value)) throw fieldsInvalid('third_parties', 'third_parties must be a list.');
  if (value.length > RELEASE_LIMITS.thirdPartiesMax) {
    throw fieldsInvalid('third_parties', `third_parties must hold at most ${RELEASE_LIMITS.thirdPartiesMax} items.`);
  }
  const seen = new Set<string>();
  return value.map((item, index) => {
    const prefix = `third_parties.${index}.`;
    const entry = objectAt(item, `third_parties.${index}`);
    const field = `${prefix}origin`;
    const { origin } = checkThirdPartyOrigin(stringAt(requiredField(entry, 'origin', prefix), field), field, settings);
    if (seen.has(origin)) throw fieldsInvalid(field, `${origin} is listed twice in third_parties.`);
    seen.add(origin);
    // A purpose is what the reviewer reads to judge the origin: an empty one says nothing.
    const purpose = lineText(requiredField(entry, 'purpose', prefix), `${prefix}purpose`, 1, RELEASE_LIMITS.purposeMax);
    refuseUnknownFields(entry, ['origin', 'purpose'], prefix);
    return { origin, purpose };
  });
}

/**
 * Judges a release body and returns it as stored: URLs normalised with ASCII hosts, `entry_origin` added,
 * lists in the order sent. Throws 400 `invalid_request`: reason `fields_invalid` with `field` (first refused
 * field in the table's order, `third_parties.N.purpose` for nested ones), `url_invalid` or `url_denied` with
 * `field` (and `detail`) for entry_url, third_parties.N.origin and data_events_url, and
 * `data_events_url_required` when scopes hold identify and data_events_url is null.
 */
export function checkRelease(input: unknown, settings: UrlRuleSettings): ReleaseInput {
  const body = objectAt(input, 'body');
  const field = (name: (typeof RELEASE_FIELDS)[number]) => requiredField(body, name);
  const entry = checkGameUrl(stringAt(field('entry_url'), 'entry_url'), 'entry_url', settings);
  const capabilities = subsetOf(field('capabilities'), 'capabilities', CAPABILITIES, 0, CAPABILITIES.length);
  const scopes = subsetOf(field('scopes'), 'scopes', RELEASE_SCOPES, 0, RELEASE_SCOPES.length);
  const orientation = orientationAt(field('orientation'));
  const platforms = platformsAt(field('platforms'));
  const thirdParties = thirdPartiesAt(field('third_parties'), settings);
  const eventsValue = field('data_events_url');
  let dataEventsUrl: string | null = null;
  if (eventsValue === null) {
    if (scopes.includes('identify')) {
      throw invalidRequest('A release that asks for identify needs a data_events_url for the data events.', {
        reason: 'data_events_url_required',
        field: 'data_events_url',
      });
    }
  } else {
    dataEventsUrl = checkGameUrl(stringAt(eventsValue, 'data_events_url'), 'data_events_url', settings).url;
  }
  const notes = longText(field('notes'), 'notes', RELEASE_LIMITS.notesMax);
  refuseUnknownFields(body, RELEASE_FIELDS);
  return {
    entry_url: entry.url,
    entry_origin: entry.origin,
    capabilities,
    scopes,
    orientation,
    platforms,
    third_parties: thirdParties,
    data_events_url: dataEventsUrl,
    notes,
  };
}

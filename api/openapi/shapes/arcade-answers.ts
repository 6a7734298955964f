// The answers of Arcade's routes, built from the shapes of arcade.ts and arcade-players.ts.
import { SLOT_KINDS } from '../../../shared/arcade/media.js';
import { answer, integer, list, nullable, object, oneOf, string, uri, type SchemaObject } from '../response-schemas.js';
import { ArcadeRecord, Check, DirectoryItem, Eligibility, Listing, Override, Release, StorePage } from './arcade.js';
import { DataEvent, DataEventPing, Grant, KeySet, Launch } from './arcade-players.js';

const Slot = (imageUrl: SchemaObject) =>
  answer(object({ kind: oneOf(SLOT_KINDS), position: integer('0; 0 to 5 for screenshot.'), image_url: imageUrl }));

export const ARCADE_ANSWERS = {
  eligibility: answer(object({ eligibility: Eligibility, app: nullable(ArcadeRecord) })),
  app: answer(object({ app: ArcadeRecord })),
  appAndCheck: answer(object({ app: ArcadeRecord, check: Check })),
  terms: answer(object({ terms: object({ current: string(), accepted: string() }) })),
  termsText: answer(
    object({
      version: string('The current version: what `terms_version` must equal.'),
      text: string('The terms as shown to developers.'),
      sha256: string('SHA-256 of `text` (its UTF-8 bytes), lowercase hex: what an acceptance records.'),
    }),
  ),
  listing: answer(object({ listing: Listing })),
  mediaSet: Slot(uri()),
  mediaCleared: Slot({ type: 'null' }),
  releases: answer(list(Release)),
  release: answer(object({ release: Release })),
  releaseAndCheck: answer(object({ release: Release, check: Check })),
  check: answer(object({ check: Check })),
  override: answer(object({ override: nullable(Override) })),
  overrideCleared: answer(object({ override: { type: 'null' } })),
  grants: answer(list(Grant, 'Newest first.')),
  grant: answer(object({ grant: Grant })),
  revoked: answer({ type: 'null' }),
  launch: answer(Launch),
  directory: object({
    data: list(DirectoryItem),
    next: nullable(string('The cursor of the following page: pass it as `cursor`. Null on the last.')),
  }),
  storePage: answer(StorePage),
  keySet: KeySet,
  dataEvents: object({
    data: list(DataEvent, 'Newest first.'),
    next: nullable(string('The cursor of the following page: pass it as `cursor`. Null on the last.')),
  }),
  dataEvent: answer(object({ event: DataEvent })),
  dataEventPing: answer(DataEventPing),
};

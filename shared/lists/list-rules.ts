// The rules of lists that need no database (DECISIONS: Lists; Refusals): a tier list's board, which items a
// list may hold (each refusal naming its place, `items.4.tier`), what a mode or board change does to the
// items already placed, and who may read one list. The read follows the person's lists
// (GET /profiles/{u}/lists): the list's own visibility, blocks either way, the author always.
import { fieldsInvalid } from '../content/content-rules.js';
import { forbidden, invalidRequest, notFound } from '../platform/errors.js';
import { DEFAULT_TIERS, type ListItemInput, type ListMode } from './rows.js';

export function listNotFound() {
  return notFound('No list you may see has this id.', 'list_not_found');
}

export function folderNotFound() {
  return notFound('You have no folder with this id.', 'folder_not_found');
}

export function listRemoved() {
  return forbidden('removed', {}, 'Moderation removed this list: it can be deleted, not changed.');
}

/** Items change through PUT /lists/{id}/items only, so a PATCH naming them is refused whole. */
export function refuseItemsInPatch(body: object): void {
  if ('items' in body) {
    throw invalidRequest('Items change through PUT /lists/{id}/items.', { field: 'items', reason: 'not_allowed' });
  }
}

/** A text of nothing but white space (any Unicode space, line breaks included) names nothing. */
export function refuseBlank(field: string, value: string | undefined): void {
  if (value !== undefined && /^\s*$/u.test(value)) throw fieldsInvalid(field, `${field} must say something.`);
}

/** The labels a list shows: a tier list's own (the default board when it has none), none on other modes. */
export function boardOf(mode: ListMode, tiers: readonly string[] | null): string[] | null {
  if (mode !== 'tier') return null;
  return [...(tiers ?? DEFAULT_TIERS)];
}

/**
 * The labels sent for a list of `mode`: only a tier list takes them, and each must say something (the
 * schema already holds their count, length and distinctness).
 */
export function refuseTiers(mode: ListMode, tiers: string[] | undefined): void {
  if (tiers === undefined) return;
  if (mode !== 'tier') throw fieldsInvalid('tiers', 'Only a tier list has tiers.');
  tiers.forEach((label, index) => refuseBlank(`tiers.${index}`, label));
}

/**
 * The first item a list of this mode and board cannot hold, in the order sent: a game the catalog lacks
 * (`known` holds the ones it has) or already placed, a tier missing in a tier list or not on its board, a
 * tier in a list of another mode.
 */
export function refuseItems(
  items: ListItemInput[],
  mode: ListMode,
  board: readonly string[] | null,
  known: ReadonlySet<number>,
): void {
  const placed = new Set<number>();
  items.forEach((item, index) => {
    const at = `items.${index}`;
    if (!known.has(item.game_id)) throw fieldsInvalid(`${at}.game_id`, 'The catalog has no game with this id.');
    if (placed.has(item.game_id)) throw fieldsInvalid(`${at}.game_id`, 'This game is already in the list.');
    placed.add(item.game_id);
    if (mode !== 'tier') {
      if (item.tier !== undefined) throw fieldsInvalid(`${at}.tier`, 'Only a tier list places games in tiers.');
    } else if (item.tier === undefined || !board!.includes(item.tier)) {
      throw fieldsInvalid(`${at}.tier`, `tier must be one of the list’s tiers: ${board!.join(', ')}.`);
    }
  });
}

/** A list's mode and board after a change, and where the games already placed go. */
export interface BoardChange {
  mode: ListMode;
  /** The labels to store: null on every mode but tier. */
  tiers: string[] | null;
  /** The items lose their tiers: the list leaves tier mode. */
  dropTiers: boolean;
  /** Each tier the items hold now (null: none) that changes, to the tier they take. */
  moves: Array<{ from: string | null; to: string }>;
}

/**
 * What a PATCH of `mode` and `tiers` makes of a list: leaving tier mode drops the labels and the items'
 * tiers; a list becoming a tier list puts its games in the first tier; a tier list given new labels keeps
 * each game in its tier when the label stays, else moves it to the label now in its tier's place (the last
 * one when the board got shorter), so renaming a tier keeps its games.
 */
export function changeBoard(
  current: { mode: ListMode; tiers: string[] | null },
  sent: { mode?: ListMode; tiers?: string[] },
): BoardChange {
  const mode = sent.mode ?? current.mode;
  refuseTiers(mode, sent.tiers);
  const before = boardOf(current.mode, current.tiers);
  if (mode !== 'tier') return { mode, tiers: null, dropTiers: before !== null, moves: [] };
  const after = sent.tiers ?? before ?? [...DEFAULT_TIERS];
  if (!before) return { mode, tiers: after, dropTiers: false, moves: [{ from: null, to: after[0] }] };
  const moves = before
    .filter((from) => !after.includes(from))
    .map((from) => ({ from, to: after[Math.min(before.indexOf(from), after.length - 1)] }));
  return { mode, tiers: after, dropTiers: false, moves };
}

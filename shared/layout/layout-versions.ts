// The states of a profile layout (spec: States and transitions, layout rows): save a draft against the
// version the client last saw, publish a version, reset. Every check of a version happens inside the one
// statement that changes the row, so concurrent saves and publishes cannot both win.
import type { Knex } from 'knex';
import { fn, raw, ref } from 'objection';
import { conflict, notFound } from '../platform/errors.js';
import { layoutMediaMap, namedMediaIds, touchNamedImages } from '../media/layout-images.js';
import { defaultLayout } from './default-layout.js';
import { ProfileLayout } from './models.js';
import { readStoredLayout } from './stored-layout.js';

async function currentVersion(knex: Knex, accountId: string): Promise<number> {
  const row = await ProfileLayout.query(knex).select('version').findById(accountId);
  return row?.version ?? 0;
}

function versionConflict(version: number) {
  return conflict(
    undefined,
    { version },
    `The layout changed since version you sent; it is at version ${version} now.`,
  );
}

/** Saves a validated draft. Version 0 means nothing is saved yet; an identical draft keeps its version. */
export async function saveLayout(
  knex: Knex,
  accountId: string,
  document: object,
  version: number,
): Promise<{ version: number; updated_at: Date }> {
  const json = JSON.stringify(document);
  await touchNamedImages(knex, accountId);
  if (version === 0) {
    const created = await ProfileLayout.query(knex)
      .insert({ account_id: accountId, draft: json, version: 1 })
      .onConflict('account_id')
      .ignore()
      .returning(['version', 'updated_at']);
    // No updated_at came back: a row was there already, and the conflict was ignored.
    if (created.updated_at !== undefined) return { version: created.version, updated_at: created.updated_at };
    throw versionConflict(await currentVersion(knex, accountId));
  }
  // The same draft again changes nothing: its version and its updated_at stay.
  const unchanged = 'draft = CAST(? AS jsonb)';
  const [saved] = await ProfileLayout.query(knex)
    .where({ account_id: accountId, version })
    .patch({
      version: raw(`CASE WHEN ${unchanged} THEN version ELSE version + 1 END`, [json]),
      updated_at: raw(`CASE WHEN ${unchanged} THEN updated_at ELSE now() END`, [json]),
      draft: raw('CAST(? AS jsonb)', [json]),
    })
    .returning(['version', 'updated_at']);
  if (saved) return { version: saved.version, updated_at: saved.updated_at };
  throw versionConflict(await currentVersion(knex, accountId));
}

/** Publishes the draft of `version`: 404 with nothing saved, 409 with the current version if it changed. */
export async function publishLayout(
  knex: Knex,
  accountId: string,
  version: number,
): Promise<{ version: number; published_at: Date }> {
  await touchNamedImages(knex, accountId);
  const [published] = await ProfileLayout.query(knex)
    .where({ account_id: accountId, version })
    .patch({ published: ref('draft'), published_version: ref('version'), published_at: fn.now() })
    .returning(['version', 'published_at']);
  if (published) return { version: published.version, published_at: published.published_at! };
  const current = await currentVersion(knex, accountId);
  if (current === 0) throw notFound('There is no saved layout to publish.');
  throw versionConflict(current);
}

/** Back to the default for everyone; repeating it is not an error. */
export async function resetLayout(knex: Knex, accountId: string): Promise<void> {
  await touchNamedImages(knex, accountId);
  await ProfileLayout.query(knex).deleteById(accountId);
}

/**
 * A visitor's view: the published copy or the default, never the draft. `media` maps only the owner's
 * images the published copy names; a reference to anyone else's image or a missing one draws nothing.
 */
export async function visitorLayout(knex: Knex, ownerId: string, inFull: boolean, mediaUrl: (key: string) => string) {
  const row = inFull ? await ProfileLayout.query(knex).select('published').findById(ownerId) : undefined;
  if (!row || row.published === null) return { layout: defaultLayout(), customized: false, media: {} };
  const layout = readStoredLayout(row.published).document;
  return { layout, customized: true, media: await layoutMediaMap(knex, ownerId, mediaUrl, namedMediaIds(layout)) };
}

/** The owner's view: draft, published copy and versions, and `media` mapping all of the owner's images. */
export async function ownerLayout(knex: Knex, accountId: string, mediaUrl: (key: string) => string) {
  const [row, media] = await Promise.all([
    ProfileLayout.query(knex).findById(accountId),
    layoutMediaMap(knex, accountId, mediaUrl),
  ]);
  if (!row) {
    return {
      draft: defaultLayout(),
      published: null,
      version: 0,
      published_version: null,
      published_at: null,
      updated_at: null,
      customized: false,
      draft_incomplete: false,
      media,
    };
  }
  const draft = readStoredLayout(row.draft);
  const published = row.published === null ? null : readStoredLayout(row.published).document;
  return {
    draft: draft.document,
    published,
    version: row.version,
    published_version: row.published_version,
    published_at: row.published_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
    customized: true,
    draft_incomplete: draft.incomplete,
    media,
  };
}

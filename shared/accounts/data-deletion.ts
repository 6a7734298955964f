// `DELETE /account/data?category=`: the deletion, one transaction per request (the proof asked first is
// sign-in's: shared/auth/deletion-proof.ts).
// Each category names the tables it empties, and the answer names each of them with its count, zeros
// included, so a client sees what was looked at as well as what went. The categories name what the account
// wrote (DECISIONS: Fine print settled on a third reading): `sessions` are the journal's play sessions, as
// the spec's "sessions" are everywhere else; sign-in sessions are no category's (they are ended one by one
// with DELETE /account/sessions/{id}).
import type { Knex } from 'knex';

export const DELETION_CATEGORIES = [
  'library',
  'reviews',
  'sessions',
  'journeys',
  'lists',
  'screenshots',
  'comments',
  'views',
  'everything',
] as const;
export type DeletionCategory = (typeof DELETION_CATEGORIES)[number];

interface OwnedTable {
  table: string;
  owner: string;
  /** Only the rows matching these columns (drafts belong to the category of what they draft). */
  where?: Record<string, string>;
}

/** What each category removes. `everything` is all of them, and the content no category names. */
export const CATEGORY_TABLES: Record<Exclude<DeletionCategory, 'everything'>, OwnedTable[]> = {
  // A category's activity items go with what they are about.
  library: [
    { table: 'activity_items', owner: 'account_id', where: { kind: 'entry' } },
    { table: 'library_entries', owner: 'account_id' },
    { table: 'library_copies', owner: 'account_id' },
  ],
  reviews: [
    { table: 'drafts', owner: 'account_id', where: { kind: 'review' } },
    { table: 'activity_items', owner: 'account_id', where: { kind: 'review' } },
    { table: 'reviews', owner: 'account_id' },
  ],
  sessions: [
    { table: 'activity_items', owner: 'account_id', where: { kind: 'session' } },
    { table: 'play_sessions', owner: 'account_id' },
  ],
  journeys: [
    { table: 'drafts', owner: 'account_id', where: { kind: 'journal' } },
    { table: 'activity_items', owner: 'account_id', where: { kind: 'journey' } },
    { table: 'journeys', owner: 'account_id' },
  ],
  lists: [
    { table: 'drafts', owner: 'account_id', where: { kind: 'list' } },
    { table: 'activity_items', owner: 'account_id', where: { kind: 'list' } },
    { table: 'lists', owner: 'account_id' },
    { table: 'list_folders', owner: 'account_id' },
  ],
  screenshots: [
    { table: 'activity_items', owner: 'account_id', where: { kind: 'screenshot' } },
    { table: 'screenshots', owner: 'account_id' },
  ],
  comments: [{ table: 'comments', owner: 'account_id' }],
  views: [{ table: 'view_history', owner: 'account_id' }],
};

/**
 * Account-owned tables no category removes, and why: they are settings, records kept about the account,
 * or security material, not content the account wrote. A test checks that every account-owned table is
 * in a category or here, so a new table makes its author decide.
 */
export const KEPT_ON_DELETION: Record<string, string> = {
  profiles: 'the profile itself; edited through PATCH /profile',
  profile_layouts: 'the profile page itself; reset through DELETE /profile/layout',
  usernames: 'the account’s name and its aliases',
  apps: 'developer settings; deleted through DELETE /account/apps/{id}',
  api_keys: 'go with their app',
  app_event_subscriptions: 'go with their app; changed through PATCH /account/apps/{id} (`events`)',
  infractions: 'moderation’s record of the account',
  identities: 'how the account signs in',
  sessions:
    'sign-in sessions: how the account is signed in, not what it wrote; each is ended with DELETE /account/sessions/{id}',
  connections: 'forgotten through DELETE /account/connections/{service}',
  recovery_codes: 'security material of two-factor',
  passkeys:
    'how the account signs in, as identities are: deleted through DELETE /api/auth/passkeys/{id} (the e-mail link stays a way in)',
  passkey_challenges: 'challenges of passkey ceremonies in flight, gone within 5 minutes',
  auth_tokens: 'one-time links, expiring by themselves',
  images: 'layout images, pictures and icons: removed through their own routes (unnamed layout images after 7 days)',
  image_uploads: 'uploads in flight, gone within minutes',
  mineral_balances: 'the account’s standing, not content',
  mineral_ledger:
    'the account’s minerals: its balance is the ledger’s sum, and what deleted content earned is taken back by its own row',
  verifications: 'the badge others vouched for',
  follows: 'the social graph: changed through the /social routes',
  arcade_apps: 'published games: removed through POST /account/apps/{id}/arcade/remove, kept 180 days as evidence',
  arcade_listings: 'store pages of published games, kept with their game',
  arcade_releases: 'releases of published games, kept with their game',
  arcade_terms_acceptances: 'proof of the developer terms accepted',
  arcade_allowlist: 'an operator setting',
  arcade_grants: 'revoked or forgotten through DELETE /account/arcade/grants/{appId}, which tells the game',
  arcade_players: 'the per-game player ids: forgotten with their grant (forget=true)',
  arcade_instances: 'plays that reports cite; they go with the account',
  follow_requests: 'the social graph: changed through the /social routes',
  blocks: 'the social graph: changed through the /social routes',
  reports: 'moderation’s record, kept with its snapshot whoever deletes what',
  moderator_actions: 'staff’s audit record of moderator actions',
  publisher_blocks: 'moderation’s decision about the account, like infractions',
  library_counts: 'a count the database keeps from the entries: deleting them brings it down',
  notification_sequences:
    'the notification stream’s counter: it must keep growing, or a stream resuming after a number would miss what follows',
  notification_listeners: 'which processes have a notification stream of the account open: it goes when they close',
};

/**
 * Content only `everything` removes, having no category of its own. Likes are no category's: the spec's
 * categories name what a person wrote, and a like is neither a comment nor a thing of their own. Their
 * deletion takes each like off its thing's count (a trigger on `likes`). The notifications the account
 * received are no one's writing either, and nothing needs them kept; those it caused others go with what
 * caused them (a deleted comment or thing takes them by trigger).
 */
const EVERYTHING_ALSO: OwnedTable[] = [
  { table: 'drafts', owner: 'account_id', where: { kind: 'note' } },
  { table: 'likes', owner: 'account_id' },
  // Awards given, like likes: their deletion takes them off each thing's count, and refunds no one.
  { table: 'awards', owner: 'giver_id' },
  { table: 'notifications', owner: 'account_id' },
];

export function tablesOf(category: DeletionCategory): OwnedTable[] {
  if (category === 'everything') return [...Object.values(CATEGORY_TABLES).flat(), ...EVERYTHING_ALSO];
  return CATEGORY_TABLES[category];
}

/** Removes exactly the category's records of the account, in one transaction; answers counts per table. */
export async function deleteAccountData(
  knex: Knex,
  accountId: string,
  category: DeletionCategory,
): Promise<Record<string, number>> {
  return knex.transaction(async (trx) => {
    const removed: Record<string, number> = {};
    for (const owned of tablesOf(category)) {
      // By the category's table name, which the answer reports the count under.
      const count = await trx(owned.table)
        .where(owned.owner, accountId)
        .where(owned.where ?? {})
        .delete();
      removed[owned.table] = (removed[owned.table] ?? 0) + count;
    }
    return removed;
  });
}

// The owner's profile: the editable display fields (display_name on the account, the rest on the profile
// row, created on first write), library visibility, and whether their views are recorded (`record_history`,
// on the account, which every session request already holds). PATCH changes only the fields it is sent.
import type { Knex } from 'knex';
import { fn } from 'objection';
import { Account } from '../accounts/account.js';
import { Profile } from './models.js';
import { currentPictureKeys } from './pictures.js';

export const PROFILE_FIELDS = {
  bio: 500,
  pronouns: 30,
  thought: 100,
  video_username: 60,
  photo_username: 30,
  microblog_username: 15,
} as const;
export const LIBRARY_VISIBILITIES = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'] as const;

export type ProfileChanges = Partial<Record<keyof typeof PROFILE_FIELDS | 'display_name', string>> & {
  library_visibility?: (typeof LIBRARY_VISIBILITIES)[number];
  record_history?: boolean;
};

/** What the answer shows of the profile's row. */
type ProfileRow = Pick<
  Profile,
  | 'bio'
  | 'pronouns'
  | 'thought'
  | 'video_username'
  | 'photo_username'
  | 'microblog_username'
  | 'library_visibility'
  | 'created_at'
  | 'updated_at'
>;

const DEFAULTS = {
  bio: '',
  pronouns: '',
  thought: '',
  video_username: '',
  photo_username: '',
  microblog_username: '',
  library_visibility: 'PUBLIC' as const,
};

export interface PictureUrls {
  avatar_url: string | null;
  banner_url: string | null;
}

export function presentProfile(account: Account, row: ProfileRow | undefined, pictures: PictureUrls) {
  const profile = row ?? { ...DEFAULTS, created_at: account.created_at, updated_at: account.created_at };
  return {
    username: account.username,
    display_name: account.display_name ?? '',
    bio: profile.bio,
    pronouns: profile.pronouns,
    thought: profile.thought,
    video_username: profile.video_username,
    photo_username: profile.photo_username,
    microblog_username: profile.microblog_username,
    library_visibility: profile.library_visibility,
    avatar_url: pictures.avatar_url,
    banner_url: pictures.banner_url,
    updated_at: (profile.updated_at > account.updated_at ? profile.updated_at : account.updated_at).toISOString(),
  };
}

async function pictureUrls(knex: Knex, accountId: string, mediaUrl: (key: string) => string): Promise<PictureUrls> {
  const keys = await currentPictureKeys(knex, accountId);
  return {
    avatar_url: keys.avatar ? mediaUrl(keys.avatar) : null,
    banner_url: keys.banner ? mediaUrl(keys.banner) : null,
  };
}

/** The owner's own answer: what visitors see, and the owner's settings beside it. */
export function presentOwnProfile(account: Account, row: ProfileRow | undefined, pictures: PictureUrls) {
  return { ...presentProfile(account, row, pictures), record_history: account.record_history };
}

/** The profile as anyone who may see the person reads it (no settings of the owner's). */
export async function readProfile(knex: Knex, account: Account, mediaUrl: (key: string) => string) {
  const [row, pictures]: [ProfileRow | undefined, PictureUrls] = await Promise.all([
    Profile.query(knex).findById(account.id),
    pictureUrls(knex, account.id, mediaUrl),
  ]);
  return presentProfile(account, row, pictures);
}

/** GET /profile: the owner's own answer. */
export async function readOwnProfile(knex: Knex, account: Account, mediaUrl: (key: string) => string) {
  return { ...(await readProfile(knex, account, mediaUrl)), record_history: account.record_history };
}

export async function updateProfile(
  knex: Knex,
  accountId: string,
  changes: ProfileChanges,
  mediaUrl: (key: string) => string,
) {
  return knex.transaction(async (trx) => {
    const { display_name, record_history, ...profileChanges } = changes;
    let account = (await Account.query(trx).findById(accountId))!;
    const accountChanges = {
      ...(display_name === undefined ? {} : { display_name }),
      ...(record_history === undefined ? {} : { record_history }),
    };
    if (Object.keys(accountChanges).length > 0) account = await account.$query(trx).patchAndFetch(accountChanges);
    let row: ProfileRow | undefined;
    if (Object.keys(profileChanges).length > 0) {
      row = await Profile.query(trx)
        .insert({ account_id: accountId, ...profileChanges })
        .onConflict('account_id')
        .merge({ ...profileChanges, updated_at: fn.now() })
        .returning('*');
    } else {
      row = await Profile.query(trx).findById(accountId);
    }
    return presentOwnProfile(account, row, await pictureUrls(trx, accountId, mediaUrl));
  });
}

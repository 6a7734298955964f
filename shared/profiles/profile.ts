// The owner's profile: the editable display fields (display_name on the account, the rest on the profile
// row, created on first write) and library visibility. PATCH changes only the fields it is sent.
import type { Knex } from 'knex';
import { Account } from '../accounts/account.js';
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
};

interface ProfileRow {
  bio: string;
  pronouns: string;
  thought: string;
  video_username: string;
  photo_username: string;
  microblog_username: string;
  library_visibility: string;
  created_at: Date;
  updated_at: Date;
}

const DEFAULTS = {
  bio: '',
  pronouns: '',
  thought: '',
  video_username: '',
  photo_username: '',
  microblog_username: '',
  library_visibility: 'PUBLIC',
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

export async function readProfile(knex: Knex, account: Account, mediaUrl: (key: string) => string) {
  const [row, pictures]: [ProfileRow | undefined, PictureUrls] = await Promise.all([
    knex('profiles').where({ account_id: account.id }).first(),
    pictureUrls(knex, account.id, mediaUrl),
  ]);
  return presentProfile(account, row, pictures);
}

export async function updateProfile(
  knex: Knex,
  accountId: string,
  changes: ProfileChanges,
  mediaUrl: (key: string) => string,
) {
  return knex.transaction(async (trx) => {
    const { display_name, ...profileChanges } = changes;
    let account = (await Account.query(trx).findById(accountId))!;
    if (display_name !== undefined) account = await account.$query(trx).patchAndFetch({ display_name });
    let row: ProfileRow | undefined;
    if (Object.keys(profileChanges).length > 0) {
      [row] = await trx('profiles')
        .insert({ account_id: accountId, ...profileChanges })
        .onConflict('account_id')
        .merge({ ...profileChanges, updated_at: trx.fn.now() })
        .returning('*');
    } else {
      row = await trx('profiles').where({ account_id: accountId }).first();
    }
    return presentProfile(account, row, await pictureUrls(trx, accountId, mediaUrl));
  });
}

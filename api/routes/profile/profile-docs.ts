// The reference's words for the owner's profile, drafts, avatar and banner (spec: Profile and layout;
// docs/api-notes.md: Profile, Drafts, Avatar and banner).
import { doc } from '../../openapi/route-facts.js';
import { IMAGE_PIPELINE_ERRORS } from './layout-docs.js';
import { PROFILE_ANSWERS } from '../../openapi/shapes/profile.js';
import { Deleted } from '../../openapi/shapes/pages-and-images.js';

const MEDIA = 'https://jogatina.example/media';

const profile = {
  username: 'ana_souza',
  display_name: 'Ana Souza',
  bio: 'Jogo de tudo um pouco, mas volto sempre aos metroidvanias.',
  pronouns: 'ela/dela',
  thought: 'Zerando Hollow Knight pela terceira vez.',
  video_username: 'anasouza',
  photo_username: 'ana.souza',
  microblog_username: 'anasouza',
  library_visibility: 'PUBLIC',
  avatar_url: `${MEDIA}/avatars/0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e.avif`,
  banner_url: null,
  updated_at: '2026-11-21T10:02:44.120Z',
  record_history: true,
};

const draft = {
  id: '9d3c6a1e-2b7f-4e80-a5c4-1f6e8b2d9a03',
  kind: 'review',
  title: 'Hollow Knight, dez anos depois',
  body: 'Rascunho: falar do mapa, da trilha sonora e de Silksong.',
  game: 'hollow-knight',
  created_at: '2026-11-18T21:14:05.331Z',
  updated_at: '2026-11-20T08:40:12.907Z',
};
const NO_DRAFT = 'not_found:draft_not_found' as const;

function picture(kind: 'AVATAR' | 'BANNER') {
  const folder = kind === 'AVATAR' ? 'avatars' : 'banners';
  const id = kind === 'AVATAR' ? '0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e' : '6f1a9b2c-7d3e-4f50-8a61-b2c3d4e5f607';
  const [width, height] = kind === 'AVATAR' ? [512, 512] : [1600, 400];
  return {
    id,
    url: `${MEDIA}/${folder}/${id}.avif`,
    width,
    height,
    bytes: kind === 'AVATAR' ? 48211 : 196530,
    animated: false,
    created_at: '2026-11-19T17:22:09.640Z',
    kind,
  };
}

const RULES = {
  AVATAR:
    'Fitted inside 512x512 (never enlarged); a still becomes AVIF up to 500 KB, an animation WebP up to 4 MB and 15 s.',
  BANNER:
    'Fitted inside 1600x1600 like layout images; a still becomes AVIF up to 1 MB, an animation WebP up to 3 MB and 10 s.',
};

function pictureDocs(kind: 'AVATAR' | 'BANNER') {
  const word = kind === 'AVATAR' ? 'avatar' : 'banner';
  return {
    upload: doc({
      summary: `Upload a new ${word}`,
      description: [
        `The upload becomes the current ${word}; the one before joins the history (the 10 newest are kept). JPEG, PNG, WebP, GIF or AVIF up to 15 MB, at most 300 frames and 40 million pixels. ${RULES[kind]} Metadata is stripped and the content screened (\`sensitive_image\`).`,
        'Counts toward the account’s 30 picture uploads per 10 minutes (avatar, banner and app icons together; refused uploads too), apart from the layout images’ own 30; 429 `busy` while processing is full.',
      ].join('\n\n'),
      status: 201,
      errors: IMAGE_PIPELINE_ERRORS,
      response: PROFILE_ANSWERS.picture,
      example: { data: picture(kind) },
    }),
    clear: doc({
      summary: `Take the ${word} off the profile`,
      description: `The picture stays in the history. Answers the same when there was no ${word}.`,
      response: PROFILE_ANSWERS.pictureCleared,
      example: { data: { kind, cleared: true } },
    }),
  };
}

export const PROFILE_DOCS = {
  read: doc({
    summary: 'Your profile',
    description:
      'The editable display fields (empty strings when unset), `library_visibility` (PUBLIC until changed), the current pictures (`avatar_url`, `banner_url`, null until set), when it last changed, and `record_history` (true until changed): whether your session’s reads of `GET /games/{slug}` and `GET /profiles/{username}` go into your history (`GET /history`).',
    response: PROFILE_ANSWERS.profile,
    example: { data: profile },
  }),
  update: doc({
    summary: 'Change your profile',
    description:
      'Only the fields sent change; an empty string clears a field. `library_visibility` FOLLOWERS or PRIVATE makes the account private: follows to it become requests. `record_history` false stops recording your views from the next read; what was recorded stays until you clear it (`DELETE /history`). Answers the whole profile.',
    response: PROFILE_ANSWERS.profile,
    example: { data: profile },
  }),
  drafts: doc({
    summary: 'Your drafts',
    description: '50 a page, most recently changed first.',
    response: PROFILE_ANSWERS.drafts,
    example: { data: [draft], page: { number: 1, size: 50, total_items: 1, total_pages: 1, has_more: false } },
  }),
  createDraft: doc({
    summary: 'Save a new draft',
    description:
      '`kind` is review, list, journal or note; `game` a game slug or null. At most 100 drafts per account (409 `draft_limit_reached` with `limit` and `count`).',
    status: 201,
    errors: ['conflict:draft_limit_reached'],
    response: PROFILE_ANSWERS.draft,
    example: { data: draft },
  }),
  draft: doc({
    summary: 'One of your drafts',
    description: 'Another account’s draft, or a malformed id, is 404 like a missing one.',
    errors: [NO_DRAFT],
    response: PROFILE_ANSWERS.draft,
    example: { data: draft },
  }),
  updateDraft: doc({
    summary: 'Change a draft',
    description: 'Only the fields sent change; sending none changes nothing (not even `updated_at`).',
    errors: [NO_DRAFT],
    response: PROFILE_ANSWERS.draft,
    example: { data: draft },
  }),
  deleteDraft: doc({
    summary: 'Delete a draft',
    errors: [NO_DRAFT],
    response: Deleted,
    example: { data: { id: draft.id, deleted: true } },
  }),
  pictures: doc({
    summary: 'Your earlier avatars or banners',
    description:
      'Pictures of `kind` you used before, newest first; never the current one. The 10 newest are kept per kind, so this is always one page.',
    response: PROFILE_ANSWERS.pictures,
    example: {
      data: [picture('AVATAR')],
      page: { number: 1, size: 10, total_items: 1, total_pages: 1, has_more: false },
    },
  }),
  forgetPicture: doc({
    summary: 'Forget an earlier picture',
    description:
      'The picture on the profile now is 409 `in_use` (upload or clear another first). An id that is not one of your avatars or banners is 404.',
    errors: ['not_found', 'conflict:in_use'],
    response: Deleted,
    example: { data: { id: picture('BANNER').id, deleted: true } },
  }),
  /** POST and DELETE /profile/avatar and /profile/banner, by picture kind. */
  current: { AVATAR: pictureDocs('AVATAR'), BANNER: pictureDocs('BANNER') },
};

// The reference's words for the owner's connections (spec: Social (owner's connections)).
import { doc } from '../../openapi/route-facts.js';
import type { ErrorRef } from '../../openapi/route-facts.js';
import { SOCIAL_ANSWERS } from '../../openapi/shapes/social.js';

const person = {
  username: 'ana_souza',
  display_name: 'Ana Souza',
  avatar_url: 'https://jogatina.example/media/avatars/3f9c.avif',
  since: '2026-11-02T18:04:11.000Z',
};
const page = { number: 1, size: 50, total_items: 1, total_pages: 1, has_more: false };
/** Another person named in the path: absent, blocking the caller, or the caller. */
const OTHER: ErrorRef[] = ['not_found', 'invalid_request:not_allowed'];

export const SOCIAL_DOCS = {
  followers: doc({
    summary: 'People who follow you',
    description: '50 a page, newest first; `q` matches names. People blocked either way are left out.',
    response: SOCIAL_ANSWERS.connections,
    example: { data: [person], page },
  }),
  following: doc({
    summary: 'People you follow',
    description: '50 a page, newest first; `q` matches names. People blocked either way are left out.',
    response: SOCIAL_ANSWERS.connections,
    example: { data: [person], page },
  }),
  blocks: doc({
    summary: 'People you block',
    description: 'Blocks you made; never those made against you.',
    response: SOCIAL_ANSWERS.connections,
    example: { data: [person], page },
  }),
  'follow-requests': doc({
    summary: 'Follow requests waiting for you',
    description: 'Requests to follow your private account, only in that direction.',
    response: SOCIAL_ANSWERS.connections,
    example: { data: [person], page },
  }),
  follow: doc({
    summary: 'Follow someone, or ask to',
    description:
      'A public account is followed at once (`following`); a private one gets a request (`requested`). Exactly one of the two is true, and repeating changes nothing. You cannot follow someone you block (409 `blocked`).',
    errors: [...OTHER, 'conflict:blocked'],
    response: SOCIAL_ANSWERS.follow,
    example: { data: { username: 'ana_souza', following: false, requested: true } },
  }),
  unfollow: doc({
    summary: 'Stop following, or withdraw a request',
    errors: OTHER,
    response: SOCIAL_ANSWERS.follow,
    example: { data: { username: 'ana_souza', following: false, requested: false } },
  }),
  block: doc({
    summary: 'Block someone',
    description: 'Follows both ways and requests between you are removed; the person can no longer see you.',
    errors: OTHER,
    response: SOCIAL_ANSWERS.block,
    example: { data: { username: 'ana_souza', blocked: true } },
  }),
  unblock: doc({
    summary: 'Unblock someone',
    description: 'Follows removed by the block are not restored.',
    errors: OTHER,
    response: SOCIAL_ANSWERS.block,
    example: { data: { username: 'ana_souza', blocked: false } },
  }),
  acceptAll: doc({
    summary: 'Accept every waiting request',
    description: 'Needs `all: true`. Each is accepted as the single route would.',
    errors: ['forbidden:mfa_required'],
    response: SOCIAL_ANSWERS.approvedAll,
    example: { data: { approved: 3 } },
  }),
  declineAll: doc({
    summary: 'Decline every waiting request',
    description: 'Needs `?all=true`.',
    response: SOCIAL_ANSWERS.declinedAll,
    example: { data: { declined: 3 } },
  }),
  accept: doc({
    summary: 'Accept one request',
    description: '404 when that person has no request waiting.',
    errors: [...OTHER, 'forbidden:mfa_required'],
    response: SOCIAL_ANSWERS.approved,
    example: { data: { username: 'ana_souza', approved: true } },
  }),
  decline: doc({
    summary: 'Decline one request',
    description: 'The request leaves the queue either way; `declined` says whether one was waiting.',
    errors: OTHER,
    response: SOCIAL_ANSWERS.declined,
    example: { data: { username: 'ana_souza', declined: true } },
  }),
};

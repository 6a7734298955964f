// The reference's words for a person's history (DECISIONS: History; Cursor reads).
import { coverUrl } from '../../../shared/content/game-covers.js';
import { doc } from '../../openapi/route-facts.js';
import { HISTORY_ANSWERS } from '../../openapi/shapes/history.js';

const RECORDED =
  'What is recorded: each successful read of `GET /games/{slug}` and `GET /profiles/{username}` made with your session (never with an API key, never your own profile), one item per game or person, a repeat view moving it to the top. Only the 500 most recent views show, and only for 90 days (older ones are removed daily). `PATCH /profile` `record_history` false stops recording; what was recorded stays until cleared.';

export const HISTORY_DOCS = {
  list: doc({
    summary: 'What you looked at',
    description: `${RECORDED}\n\nNewest first, by cursor: \`before\` is the last item’s \`viewed_at\` (to the microsecond) and \`next_before\` is null on the last page. \`kind\` games or profiles keeps one kind; without it both. A game the catalog no longer has, and a person who blocked you or whom you blocked, are left out.`,
    response: HISTORY_ANSWERS.history,
    example: {
      data: [
        {
          kind: 'game',
          viewed_at: '2026-11-26T18:42:10.204117Z',
          game: { id: 14593, slug: 'hollow-knight', name: 'Hollow Knight', cover_url: coverUrl('co93cr') },
          profile: null,
        },
        {
          kind: 'profile',
          viewed_at: '2026-11-26T18:40:02.881930Z',
          game: null,
          profile: { username: 'bruno_rpg', display_name: 'Bruno', avatar_url: null },
        },
      ],
      has_more: true,
      next_before: '2026-11-26T18:40:02.881930Z',
    },
  }),
  clear: doc({
    summary: 'Clear what you looked at',
    description:
      'Removes your recorded views, or with `kind` only those of games or of profiles, and answers how many went (those a read no longer shows count too). Recording goes on unless `record_history` is off. The account data category `views` (`DELETE /account/data`) removes them as well.',
    response: HISTORY_ANSWERS.cleared,
    example: { data: { removed: 42 } },
  }),
};

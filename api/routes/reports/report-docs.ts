// The reference's words for POST /reports (spec: Reports; docs/api-notes.md: Reports).
import { doc } from '../../openapi/route-facts.js';
import { SERVICE_ANSWERS } from '../../openapi/shapes/service.js';

export const REPORT_DOCS = {
  file: doc({
    summary: 'Report a person, something they posted, or an Arcade game',
    description: [
      'The answer says only that the report arrived; there is no read side. `username` (current name or a 30-day alias) is required for every kind but ARCADE_APP, which takes the account from the game. `id` is required except for PROFILE: a review’s, play session’s or journey’s id (DIARY covers sessions and journeys), a list’s or screenshot’s public id, a comment’s id (PROFILE_COMMENT on a profile, CONTENT_COMMENT on a posted thing), or for ARCADE_APP the game’s app id, optionally with the `instance_id` of the play it came from.',
      'SPOILER is only for posted things (not PROFILE), SCAM only for ARCADE_APP; OTHER needs `details` of at least 10 characters after trimming. Reporting yourself or your own thing is 400 (`not_allowed`). An unknown name, or a thing that is missing, removed, hidden from you, or of someone who blocks you, is 404; someone you block can still be reported. A second report on the same target while yours is open is 409 `report_open`.',
      'ARCADE_APP is for the website’s session only: a key gets 403 `forbidden`. CHILD_SAFETY, SELF_HARM and VIOLENCE go first in the moderation queue, then SCAM.',
    ].join('\n\n'),
    status: 201,
    errors: [
      'forbidden',
      'invalid_request:missing',
      'invalid_request:not_allowed',
      'invalid_request:too_short',
      'not_found',
      'conflict:report_open',
    ],
    response: SERVICE_ANSWERS.report,
    example: { data: { received: true } },
  }),
};

// The reference's words for `GET /api/v1/me` (spec: Authentication rule 5; DECISIONS: API keys and allowances).
import { doc } from '../openapi/route-facts.js';
import { SERVICE_ANSWERS } from '../openapi/shapes/service.js';

export const ME_DOC = doc({
  summary: 'Who is calling',
  description:
    'Any live key (no scope needed) or a session. `key` is the calling key with its app’s current `scopes`, or null for a session. `username` and `display_name` are null until set.',
  response: SERVICE_ANSWERS.me,
  example: {
    data: {
      account: { id: '2d7f4b8e-6a1c-4e3d-9b52-8c0a1f6e3d94', username: 'ana_souza', display_name: 'Ana Souza' },
      key: {
        id: '0f8a3c6e-2b7d-4e19-a5c4-93d1e6b7f820',
        app_id: '5b1e7c2a-8f43-4d0e-9a6b-2c7d81f0e934',
        scopes: ['library.read', 'profile.read'],
      },
    },
  },
});

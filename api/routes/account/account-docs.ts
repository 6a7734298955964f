// The reference's words for the signed-in account itself: its name, state, birth date, identities and
// connections, sessions, export and data deletion (spec: Account routes, Proof for DELETE /account/data;
// docs/api-notes.md: Usernames, Account state, Birth date, Identities and connections, Bootstrap, Export, Data deletion).
import { EXPORTED_TABLES } from '../../../shared/accounts/export-registry.js';
import { EXPORT_VERSION } from '../../../shared/accounts/export.js';
import { doc } from '../../openapi/route-facts.js';
import { ACCOUNT_ANSWERS } from '../../openapi/shapes/account.js';

const ACCOUNT_ID = '2d7f4b8e-6a1c-4e3d-9b52-8c0a1f6e3d94';
const SESSION_ID = '9e4c1a7b-3d6f-4b28-a0e5-7f2d8c3b1a60';
/** The account's collections come whole (DECISIONS, Fine print). */
const ONE_PAGE =
  'The list comes whole on one page: `page` is number 1 of 1 with `size` equal to `total_items` (0 pages when empty).';
const twoOnOnePage = { number: 1, size: 2, total_items: 2, total_pages: 1, has_more: false };

const session = {
  id: SESSION_ID,
  created_at: '2026-11-18T21:04:13.552Z',
  last_seen_at: '2026-11-21T09:12:48.017Z',
  signed_in_at: '2026-11-21T09:01:30.884Z',
  second_factor: 'passed',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  ip: '203.0.113.24',
  current: true,
};
const otherSession = {
  id: '4b0e8d2c-7a5f-4c19-8e63-2d1f9a7c5b08',
  created_at: '2026-11-02T07:40:22.190Z',
  last_seen_at: '2026-11-19T18:33:05.671Z',
  signed_in_at: '2026-11-02T07:40:22.190Z',
  second_factor: 'none',
  user_agent: null,
  ip: '198.51.100.7',
  current: false,
};

/** The export as a client receives it: the account, then one member per exported table, in this order. */
const exportDocument = {
  export_version: EXPORT_VERSION,
  exported_at: '2026-11-21T09:15:02.336Z',
  account: {
    id: ACCOUNT_ID,
    email: 'ana@example.com',
    email_verified_at: '2026-10-01T12:03:44.000Z',
    username: 'ana_souza',
    display_name: 'Ana Souza',
    role: 'member',
    birth_date: '1994-07-12',
    birth_date_confirmed_by: 'self_declared',
    two_factor_enabled_at: '2026-10-02T08:15:00.000Z',
    username_changed_at: null,
    record_history: true,
    created_at: '2026-10-01T12:00:09.000Z',
    updated_at: '2026-11-18T21:04:13.000Z',
  },
  ...Object.fromEntries(EXPORTED_TABLES.map((table) => [table.key, []])),
  copies: [
    {
      id: '61c2f9a4-0d8b-4e37-b5a1-c7e3f2d90b18',
      game_id: 1942,
      platform_id: 6,
      format: 'physical',
      note: 'Collector’s edition',
      created_at: '2026-10-05T16:22:41.093Z',
      updated_at: '2026-10-05T16:22:41.093Z',
    },
  ],
};

export const ACCOUNT_DOCS = {
  bootstrap: doc({
    summary: 'Prepare the account after sign-in',
    description:
      'Creates the profile row with its defaults; safe to repeat (`profile_created` says whether this call made it). `adopt_twitch=true` also turns the account’s Twitch sign-in identity into its linked Twitch connection (`adopted` lists it); without such an identity, 404 `identity_not_found`.',
    errors: ['not_found:identity_not_found'],
    response: ACCOUNT_ANSWERS.bootstrap,
    example: { data: { ready: true, profile_created: true, adopted: ['twitch'] } },
  }),
  state: doc({
    summary: 'The account’s standing',
    description:
      '`state` is null, `suspended` (an active Suspensão) or `banned` (a Banimento permanente); `suspended` is true for both. A warning (Aviso) or an expired suspension changes neither. `infraction_history` is newest first; `details` are moderation’s words or null. Readable while suspended.',
    response: ACCOUNT_ANSWERS.state,
    example: {
      data: {
        suspended: true,
        state: 'suspended',
        infractions: 2,
        infraction_history: [
          {
            id: 'a83f2c61-9d0e-4b7a-8c15-3e6f0d2b9a47',
            reason: 'Suspensão',
            details: 'Repeated spam in list comments.',
            expires_at: '2026-12-01T00:00:00.000Z',
            created_at: '2026-11-17T15:30:00.000Z',
          },
          {
            id: '1f6b9e3d-2c7a-4d08-b4e2-9a5c1d7f3e60',
            reason: 'Aviso',
            details: null,
            expires_at: null,
            created_at: '2026-10-20T11:02:18.000Z',
          },
        ],
        username: 'ana_souza',
      },
    },
  }),
  birthDate: doc({
    summary: 'Your birth date',
    description:
      'Only ever answered to the account itself. Both fields are null until a date is stored; `confirmed_by` is `self_declared` for a date the account gave.',
    response: ACCOUNT_ANSWERS.birthDate,
    example: { data: { birth_date: '1994-07-12', confirmed_by: 'self_declared' } },
  }),
  setBirthDate: doc({
    summary: 'Store your birth date',
    description:
      '`YYYY-MM-DD`. A date less than 13 years ago is 400 `too_recent` (the database refuses it); before 1900, `out_of_range`. Stored as self-declared, replacing any earlier confirmation.',
    errors: ['invalid_request:too_recent', 'invalid_request:out_of_range'],
    response: ACCOUNT_ANSWERS.birthDate,
    example: { data: { birth_date: '1994-07-12', confirmed_by: 'self_declared' } },
  }),
  identities: doc({
    summary: 'How you sign in',
    description: `The email first (\`verified\`; \`password\` says whether one is set), then linked sign-in providers, oldest first. ${ONE_PAGE}`,
    response: ACCOUNT_ANSWERS.identities,
    example: {
      data: [
        {
          provider: 'email',
          email: 'ana@example.com',
          verified: true,
          password: true,
          created_at: '2026-10-01T12:00:09.000Z',
        },
        { provider: 'twitch', display_name: 'AnaJoga', created_at: '2026-10-03T20:41:55.000Z' },
      ],
      page: twoOnOnePage,
    },
  }),
  forgetConnection: doc({
    summary: 'Forget a linked account',
    description:
      '`service` is `twitch` (streaming) or `steam` (game store); any other is 404 `service_not_found`. `removed` is false when none was linked. Linking happens in the browser only.',
    errors: ['not_found:service_not_found'],
    response: ACCOUNT_ANSWERS.forgetConnection,
    example: { data: { service: 'steam', removed: true } },
  }),
  usernameAvailable: doc({
    summary: 'Is a username free?',
    description:
      'A name not shaped like a username (3 to 24 of a-z, 0-9 and `_`, not starting or ending with `_`) is simply not available: any string, however long, is answered, never refused. Your own alias of the last 30 days is available to you. Case is ignored.',
    response: ACCOUNT_ANSWERS.usernameAvailable,
    example: { data: { username: 'ana_souza', available: true } },
  }),
  claimUsername: doc({
    summary: 'Take a first username',
    description:
      'For an account without one (409 `username_already_set` otherwise: rename with `PATCH`). A name held by anyone, current or as a 30-day alias, is 409 `username_taken`.',
    errors: ['conflict:username_already_set', 'conflict:username_taken'],
    response: ACCOUNT_ANSWERS.username,
    example: { data: { username: 'ana_souza', next_change_at: null } },
  }),
  rename: doc({
    summary: 'Rename',
    description:
      '30 days between renames: sooner is 409 `rename_too_soon` with `next_change_at`. The old name stays an alias pointing at you for 30 days, and you may take it back. Without a username, 409 `no_username`; a name held by someone else, 409 `username_taken`. Renaming to the current name changes nothing.',
    errors: ['conflict:no_username', 'conflict:rename_too_soon', 'conflict:username_taken'],
    response: ACCOUNT_ANSWERS.username,
    example: { data: { username: 'ana_joga', next_change_at: '2026-12-21T09:20:11.402Z' } },
  }),
  sessions: doc({
    summary: 'Where you are signed in',
    description: `Live sessions (used within the last 30 days), most recently used first. \`current\` marks the one calling; \`signed_in_at\` is the last sign-in or passed second factor; \`second_factor\` is none, pending or passed. ${ONE_PAGE}`,
    response: ACCOUNT_ANSWERS.sessions,
    example: { data: [session, otherSession], page: twoOnOnePage },
  }),
  endSession: doc({
    summary: 'End a session',
    description:
      'Any session of yours, the calling one included (then `current` is true and its cookie is cleared). Another account’s session, or a malformed id, is 404.',
    errors: ['not_found:session_not_found'],
    headers: { 'Set-Cookie': 'Clears the session cookie when the calling session ended.' },
    response: ACCOUNT_ANSWERS.endSession,
    example: { data: { id: SESSION_ID, ended: true, current: true } },
  }),
  export: doc({
    summary: 'Download everything the account wrote',
    description:
      'One JSON document `{ data: {...} }` like every success, streamed as a file: in `data`, `export_version`, `exported_at`, `account`, then one member per exported table (`sessions` are your play sessions and `sign_in_sessions` where you signed in, as the deletion categories name them: `export_version` 2; version 1 named them `play_sessions` and `sessions`). Never exported: password hashes, two-factor secrets, token hashes, recovery codes, one-time links. A failure part-way cuts the stream, so a partial file never parses as complete.',
    produces: 'application/json; charset=utf-8',
    headers: {
      'Content-Disposition': '`attachment; filename="jogatina-export-<username or id>-<YYYY-MM-DD>.json"`',
      'Cache-Control': '`no-store`',
    },
    response: ACCOUNT_ANSWERS.export,
    example: { data: exportDocument },
  }),
  deleteData: doc({
    summary: 'Delete a category of your data',
    description: [
      'Irreversible. Answers the records removed per table, naming every table of the category, zeros included. The categories name what you wrote: `library` your library entries and owned copies, `sessions` your play sessions (the journal’s), `journeys` your journeys, `reviews`, `lists` (with their folders), `screenshots`, `comments`, `views` (your history); drafts and feed items go with what they belong to. `everything` removes all of them and your likes, awards given, notes and notifications, but keeps the account, its profile, name, apps and keys. No category signs you out: sign-in sessions are ended with `DELETE /account/sessions/{id}`. Proof, in this order:',
      '1. A session owing its second factor: 403 `mfa_required`, whatever the body holds.',
      '2. An account with a password sends `password` every time: missing 403 `password_required`, wrong `password_incorrect`.',
      '3. Without a password, a sign-in from the last 15 minutes suffices; older is 403 `reauthentication_required` with `second_factor` (whether a `code` would do). With two-factor on, `code` (authenticator or recovery code) may be sent instead; wrong is `code_incorrect`.',
      '4. 10 passwords or codes per 15 minutes per account, then 429 `too_many_attempts`.',
    ].join('\n'),
    errors: [
      'forbidden:password_required',
      'forbidden:password_incorrect',
      'forbidden:reauthentication_required',
      'forbidden:code_incorrect',
      'rate_limited:too_many_attempts',
    ],
    headers: { 'Set-Cookie': 'Clears the session cookie for `sessions` and `everything`.' },
    response: ACCOUNT_ANSWERS.deleteData,
    example: {
      data: {
        category: 'library',
        removed: { activity_items: 42, library_entries: 40, library_copies: 3 },
      },
    },
  }),
};

// The signed-in account's answers: apps, keys, username, state, birth date, identities, sessions, export and
// data deletion (spec: App, Key, Account state; DECISIONS: API keys; shared/keys/presenters.ts,
// shared/auth/presenters.ts, shared/accounts/).
import { DELETION_CATEGORIES } from '../../../shared/accounts/data-deletion.js';
import { EXPORTED_TABLES } from '../../../shared/accounts/export-registry.js';
import { CONNECTION_SERVICES } from '../../../shared/accounts/connections.js';
import { SCOPES } from '../../../shared/keys/scopes.js';
import { EVENT_TYPES } from '../../../shared/events/event-types.js';
import {
  answer,
  boolean,
  component,
  constant,
  date,
  dateTime,
  integer,
  list,
  map,
  nullable,
  object,
  oneOf,
  string,
  uri,
  uuid,
  type SchemaObject,
} from '../response-schemas.js';
import { SECOND_FACTOR } from './auth.js';
import { ArcadeSummary } from './arcade.js';
import { Page } from './pages-and-images.js';

export const Scopes = list(oneOf(SCOPES), 'The app’s scopes.');

export const Key = component(
  'Key',
  object(
    {
      id: uuid(),
      app_id: uuid(),
      name: string(),
      last4: string('The last 4 characters of the token, to recognise it.'),
      created_at: dateTime(),
      expires_at: nullable(dateTime('Null: never.')),
      last_used_at: nullable(dateTime()),
      revoked_at: nullable(dateTime()),
      state: oneOf(['live', 'revoked', 'expired']),
    },
    { description: 'A key as listed: never its token.' },
  ),
);

/** The one answer that shows a token. */
export const NewKey = component(
  'NewKey',
  object({
    id: uuid(),
    app_id: uuid(),
    name: string(),
    last4: string(),
    created_at: dateTime(),
    expires_at: nullable(dateTime()),
    last_used_at: { type: 'null' },
    revoked_at: { type: 'null' },
    state: constant('live'),
    token: string('`KEY_PREFIX` and 32 lowercase hex: shown in this answer only.'),
  }),
);

export const AppEvents = component(
  'AppEvents',
  object(
    {
      url: uri('Where events are POSTed.'),
      types: list(oneOf(EVENT_TYPES), 'The types subscribed to.'),
      state: oneOf(['active', 'disabled']),
      disabled_reason: nullable(
        oneOf(['gone', 'failing'], '`gone`: the URL answered 410. `failing`: three days with no success.'),
      ),
      pending: integer('Events not yet delivered or failed.'),
      failed: integer('Events that failed (kept 30 days).'),
    },
    { description: 'The app’s subscription to events for integrations.' },
  ),
);

const appMembers = {
  id: uuid(),
  name: string(),
  description: string('Empty when none.'),
  icon_url: nullable(uri('Null without an icon.')),
  scopes: Scopes,
  created_at: dateTime(),
  updated_at: dateTime(),
  active_keys: integer('Live keys.'),
  last_used_at: nullable(dateTime('When any key of the app was last used.')),
  arcade: nullable(ArcadeSummary),
  events: nullable(AppEvents),
};

export const App = component('App', object(appMembers, { description: 'spec: App.' }));
export const AppWithKeys = component(
  'AppWithKeys',
  object({ ...appMembers, keys: list(Key, 'Live keys first, then newest first.') }),
);

const INFRACTION_REASONS = ['Aviso', 'Suspensão', 'Banimento permanente'];

export const Infraction = component(
  'Infraction',
  object({
    id: uuid(),
    reason: oneOf(INFRACTION_REASONS),
    details: nullable(string('Moderation’s words.')),
    expires_at: nullable(dateTime()),
    created_at: dateTime(),
  }),
);

const BirthDate = object({
  birth_date: nullable(date()),
  confirmed_by: nullable(oneOf(['self_declared', 'document', 'moderator'])),
});

const Username = object({
  username: string(),
  next_change_at: nullable(dateTime('When the next rename may be made; null until a rename.')),
});

const Identity = {
  oneOf: [
    object({
      provider: constant('email'),
      email: string(),
      verified: boolean(),
      password: boolean('Whether a password is set.'),
      created_at: dateTime(),
    }),
    object({
      provider: string('A linked sign-in provider, such as twitch.'),
      display_name: nullable(string()),
      created_at: dateTime(),
    }),
  ],
};

export const AccountSession = component(
  'AccountSession',
  object({
    id: uuid(),
    created_at: dateTime(),
    last_seen_at: dateTime(),
    signed_in_at: dateTime('The last sign-in or passed second factor.'),
    second_factor: oneOf(SECOND_FACTOR),
    user_agent: nullable(string()),
    ip: nullable(string()),
    current: boolean('The session making this request.'),
  }),
);

/** The `accounts` row as exported: `ACCOUNT_COLUMNS`, never a secret. */
const ExportedAccount = object({
  id: uuid(),
  email: string(),
  email_verified_at: nullable(dateTime()),
  username: nullable(string()),
  display_name: nullable(string()),
  role: oneOf(['member', 'moderator', 'admin']),
  birth_date: nullable(date()),
  birth_date_confirmed_by: nullable(oneOf(['self_declared', 'document', 'moderator'])),
  two_factor_enabled_at: nullable(dateTime()),
  username_changed_at: nullable(dateTime()),
  record_history: boolean('Whether session reads are recorded in the history (PATCH /profile).'),
  created_at: dateTime(),
  updated_at: dateTime(),
});

/** Each exported table's rows, with the columns a person may read back. */
const exportedTables = Object.fromEntries(
  EXPORTED_TABLES.map((table) => [
    table.key,
    list(object(Object.fromEntries(table.columns.map((column) => [column, {}]))), `Rows of ${table.table}.`),
  ]),
);

/** A collection answered whole: `page` is number 1 of 1 with `size` = `total_items` (0 pages when empty). */
const whole = (items: SchemaObject) => answer(items, { page: Page });

export const ACCOUNT_ANSWERS = {
  bootstrap: answer(
    object({
      ready: constant(true),
      profile_created: boolean('Whether this call made the profile row.'),
      adopted: list(oneOf(CONNECTION_SERVICES), 'Connections adopted from sign-in identities.'),
    }),
  ),
  state: answer(
    object({
      suspended: boolean('True for an active suspension and for a ban.'),
      state: nullable(oneOf(['suspended', 'banned'])),
      infractions: integer(),
      infraction_history: list(Infraction, 'Newest first.'),
      username: nullable(string()),
    }),
  ),
  birthDate: answer(BirthDate),
  identities: whole(list(Identity, 'The email first, then linked sign-in providers, oldest first.')),
  forgetConnection: answer(object({ service: oneOf(CONNECTION_SERVICES), removed: boolean() })),
  usernameAvailable: answer(object({ username: string('The name asked about.'), available: boolean() })),
  username: answer(Username),
  sessions: whole(list(AccountSession)),
  endSession: answer(object({ id: uuid(), ended: constant(true), current: boolean() })),
  export: answer(
    object({
      export_version: integer(),
      exported_at: dateTime(),
      account: ExportedAccount,
      ...exportedTables,
    }),
  ),
  deleteData: answer(
    object({
      category: oneOf(DELETION_CATEGORIES),
      removed: map(integer(), 'Records removed per table, every table of the category named, zeros included.'),
    }),
  ),
  apps: whole(list(App, 'Most recently changed first.')),
  app: answer(App),
  appWithKeys: answer(AppWithKeys),
  appDeleted: answer(object({ id: uuid(), deleted: constant(true) })),
  keys: whole(list(Key)),
  key: answer(Key),
  newKey: answer(NewKey),
  icon: answer(object({ id: uuid('The icon’s id.'), icon_url: uri() })),
  iconRemoved: answer(object({ id: uuid('The app’s id.'), icon_url: { type: 'null' } })),
};

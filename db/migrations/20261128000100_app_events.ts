// Events for integrations (DECISIONS: Events for integrations). An app subscribes an https URL to event
// types (app_event_subscriptions); each change of its owner's things writes one event per subscribed app
// (app_events), in the change's own transaction, by the triggers below: every writer (the website, any
// key, a one-statement write, a moderator) makes them, and none can forget to. A trigger fires only when a
// field the owner's read route shows changed, so a repeated PUT of the same entry makes no event, and one
// event per thing, type and transaction is kept, so a request that writes a list and its items makes one. `data` is written here for the deleted types (the ids); the other types' data is the read
// route's answer, rendered by the delivery at the first attempt and kept for every later one.
//
// Delivery (shared/events/) queues a job per event when a worker finds it (it looks every 200 ms), and
// the attempts are logged in app_event_attempts, as data events' are.
import type { Knex } from 'knex';

/** The catalogue and its scopes (shared/events/event-types.ts holds the same; a test compares them). */
const TYPE_SCOPES: Array<[string, string | null]> = [
  ['library.entry.saved', 'library.read'],
  ['library.entry.deleted', 'library.read'],
  ['journal.session.closed', 'journal.read'],
  ['journal.journey.saved', 'journal.read'],
  ['review.saved', 'reviews.read'],
  ['review.deleted', 'reviews.read'],
  ['list.saved', 'lists.read'],
  ['list.deleted', 'lists.read'],
  ['screenshot.saved', 'screenshots.read'],
  ['screenshot.deleted', 'screenshots.read'],
  ['notification.created', 'notifications.read'],
  ['profile.updated', 'profile.read'],
  ['ping', null],
];

const typeList = TYPE_SCOPES.map(([type]) => `'${type}'`).join(', ');

/** One trigger function: its body runs `record(owner, type, subject, data)` for the row it is given. */
interface EventTrigger {
  table: string;
  name: string;
  /** AFTER ... FOR EACH ROW, with its WHEN. */
  on: string;
  when?: string;
  body: string;
}

const SHOWN = {
  library_entries: 'status, playing, backlog, wishlist, liked, ignored, rating, platform_id, finished_at, game_id',
  journeys: 'title, visibility, started_at, finished_at, game_id, removed_at',
  reviews: 'body, rating, contains_spoilers, visibility, game_id, removed_at',
  lists: 'folder_id, title, description, visibility, mode, tiers, removed_at',
  screenshots: 'description, visibility, contains_spoilers, sensitive, image_key, game_id, removed_at',
  notifications: 'data, actor_id, created_at',
  profiles:
    'bio, pronouns, thought, video_username, photo_username, microblog_username, library_visibility, avatar_image_id, banner_image_id',
};

/** What a profile row holds when made with nothing given (migration profiles; no pictures), in SHOWN's order. */
const PROFILE_DEFAULTS = "'', '', '', '', '', '', 'PUBLIC', NULL::uuid, NULL::uuid";

const changed = (columns: string) => {
  const list = columns.split(', ');
  return `(${list.map((c) => `OLD.${c}`).join(', ')}) IS DISTINCT FROM (${list.map((c) => `NEW.${c}`).join(', ')})`;
};

const TRIGGERS: EventTrigger[] = [
  {
    table: 'library_entries',
    name: 'entry_saved_insert',
    on: 'INSERT',
    body: "app_event_record(NEW.account_id, 'library.entry.saved', NEW.game_id::text, NULL)",
  },
  {
    table: 'library_entries',
    name: 'entry_saved_update',
    on: 'UPDATE',
    when: changed(SHOWN.library_entries),
    body: "app_event_record(NEW.account_id, 'library.entry.saved', NEW.game_id::text, NULL)",
  },
  {
    table: 'library_entries',
    name: 'entry_deleted',
    on: 'DELETE',
    body: `app_event_record(OLD.account_id, 'library.entry.deleted', OLD.game_id::text,
      jsonb_build_object('game_id', OLD.game_id, 'entry_id', OLD.id))`,
  },
  {
    table: 'play_sessions',
    name: 'session_closed_insert',
    on: 'INSERT',
    when: 'NEW.ended_at IS NOT NULL',
    body: "app_event_record(NEW.account_id, 'journal.session.closed', NEW.id::text, NULL)",
  },
  {
    table: 'play_sessions',
    name: 'session_closed_update',
    on: 'UPDATE',
    when: 'OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL',
    body: "app_event_record(NEW.account_id, 'journal.session.closed', NEW.id::text, NULL)",
  },
  {
    table: 'journeys',
    name: 'journey_saved_insert',
    on: 'INSERT',
    body: "app_event_record(NEW.account_id, 'journal.journey.saved', NEW.id::text, NULL)",
  },
  {
    table: 'journeys',
    name: 'journey_saved_update',
    on: 'UPDATE',
    when: changed(SHOWN.journeys),
    body: "app_event_record(NEW.account_id, 'journal.journey.saved', NEW.id::text, NULL)",
  },
  {
    table: 'reviews',
    name: 'review_saved_insert',
    on: 'INSERT',
    body: "app_event_record(NEW.account_id, 'review.saved', NEW.id::text, NULL)",
  },
  {
    table: 'reviews',
    name: 'review_saved_update',
    on: 'UPDATE',
    when: changed(SHOWN.reviews),
    body: "app_event_record(NEW.account_id, 'review.saved', NEW.id::text, NULL)",
  },
  {
    table: 'reviews',
    name: 'review_deleted',
    on: 'DELETE',
    body: "app_event_record(OLD.account_id, 'review.deleted', OLD.id::text, jsonb_build_object('id', OLD.id))",
  },
  {
    table: 'lists',
    name: 'list_saved_insert',
    on: 'INSERT',
    body: "app_event_record(NEW.account_id, 'list.saved', NEW.public_id, NULL)",
  },
  {
    table: 'lists',
    name: 'list_saved_update',
    on: 'UPDATE',
    when: changed(SHOWN.lists),
    body: "app_event_record(NEW.account_id, 'list.saved', NEW.public_id, NULL)",
  },
  {
    table: 'lists',
    name: 'list_deleted',
    on: 'DELETE',
    body: "app_event_record(OLD.account_id, 'list.deleted', OLD.public_id, jsonb_build_object('id', OLD.public_id))",
  },
  {
    table: 'screenshots',
    name: 'screenshot_saved_insert',
    on: 'INSERT',
    body: "app_event_record(NEW.account_id, 'screenshot.saved', NEW.public_id, NULL)",
  },
  {
    table: 'screenshots',
    name: 'screenshot_saved_update',
    on: 'UPDATE',
    when: changed(SHOWN.screenshots),
    body: "app_event_record(NEW.account_id, 'screenshot.saved', NEW.public_id, NULL)",
  },
  {
    table: 'screenshots',
    name: 'screenshot_deleted',
    on: 'DELETE',
    body: `app_event_record(OLD.account_id, 'screenshot.deleted', OLD.public_id,
      jsonb_build_object('id', OLD.public_id))`,
  },
  {
    table: 'notifications',
    name: 'notification_created',
    on: 'INSERT',
    body: "app_event_record(NEW.account_id, 'notification.created', NEW.id::text, NULL)",
  },
  {
    // A collapsed notification (likes) gains an actor: it is shown again as new.
    table: 'notifications',
    name: 'notification_collapsed',
    on: 'UPDATE',
    when: changed(SHOWN.notifications),
    body: "app_event_record(NEW.account_id, 'notification.created', NEW.id::text, NULL)",
  },
  {
    // The row is made by the profile's first write (PATCH /profile, a picture): until then GET /profile
    // answers the defaults, so only a row that differs from them changes what it shows.
    table: 'profiles',
    name: 'profile_created',
    on: 'INSERT',
    when: `(NEW.${SHOWN.profiles.replaceAll(', ', ', NEW.')}) IS DISTINCT FROM (${PROFILE_DEFAULTS})`,
    body: "app_event_record(NEW.account_id, 'profile.updated', NEW.account_id::text, NULL)",
  },
  {
    table: 'profiles',
    name: 'profile_updated',
    on: 'UPDATE',
    when: changed(SHOWN.profiles),
    body: "app_event_record(NEW.account_id, 'profile.updated', NEW.account_id::text, NULL)",
  },
  {
    // GET /profile shows the account's names beside the profile's fields, and the owner's record_history;
    // it shows no display name as '', so setting '' where there was none changes nothing it shows.
    table: 'accounts',
    name: 'profile_names_updated',
    on: 'UPDATE',
    when: `(OLD.username, coalesce(OLD.display_name, ''), OLD.record_history)
      IS DISTINCT FROM (NEW.username, coalesce(NEW.display_name, ''), NEW.record_history)`,
    body: "app_event_record(NEW.id, 'profile.updated', NEW.id::text, NULL)",
  },
  {
    table: 'profile_layouts',
    name: 'layout_published_insert',
    on: 'INSERT',
    when: 'NEW.published_version IS NOT NULL',
    body: "app_event_record(NEW.account_id, 'profile.updated', NEW.account_id::text, NULL)",
  },
  {
    table: 'profile_layouts',
    name: 'layout_published_update',
    on: 'UPDATE',
    when: 'OLD.published_version IS DISTINCT FROM NEW.published_version OR OLD.published IS DISTINCT FROM NEW.published',
    body: "app_event_record(NEW.account_id, 'profile.updated', NEW.account_id::text, NULL)",
  },
  {
    table: 'profile_layouts',
    name: 'layout_published_delete',
    on: 'DELETE',
    when: 'OLD.published IS NOT NULL',
    body: "app_event_record(OLD.account_id, 'profile.updated', OLD.account_id::text, NULL)",
  },
];

/** A list's items are the list: one `list.saved` per list a statement on list_items touched. */
const ITEM_EVENTS = [
  { on: 'INSERT', table: 'NEW TABLE AS touched' },
  { on: 'UPDATE', table: 'NEW TABLE AS touched' },
  { on: 'DELETE', table: 'OLD TABLE AS touched' },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE app_event_subscriptions (
      app_id uuid PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      url text NOT NULL,
      types text[] NOT NULL,
      state text NOT NULL DEFAULT 'active' CONSTRAINT app_event_subscriptions_state CHECK (state IN ('active', 'disabled')),
      disabled_reason text CONSTRAINT app_event_subscriptions_reason CHECK (disabled_reason IN ('gone', 'failing')),
      disabled_at timestamptz,
      -- The last attempt that delivered, and the first that failed after it: three days of failures with no
      -- success in between disable the subscription ('failing').
      last_success_at timestamptz,
      failing_since timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT app_event_subscriptions_types CHECK (types <@ ARRAY[${typeList}]::text[] AND cardinality(types) > 0)
    );
    -- Every write of a person looks here first: an index on the owner, of the active ones only. It holds
    -- app_id too, in the primary key's order, so that it is the planner's choice whatever the statistics say
    -- (app_event_record): with the table analyzed empty, the owner alone tied with a walk of the whole
    -- primary key (ordered for the join with apps), and the walk won.
    CREATE INDEX app_event_subscriptions_owner ON app_event_subscriptions (account_id, app_id) WHERE state = 'active';

    -- Increasing for every app (a receiver orders by it); one sequence, so no write waits on another's count.
    CREATE SEQUENCE app_event_seq AS bigint;

    CREATE TABLE app_events (
      -- Also the token's jti and the webhook-id header.
      id uuid PRIMARY KEY DEFAULT uuid_v7(),
      -- No foreign key: its check would lock the app's row (a write to the apps table) in every write that
      -- makes an event; app_events_gone deletes an app's events with it instead.
      app_id uuid NOT NULL,
      account_id uuid NOT NULL,
      type text NOT NULL CONSTRAINT app_events_type CHECK (type IN (${typeList})),
      seq bigint NOT NULL DEFAULT nextval('app_event_seq'),
      -- What the data is rendered from: a game id, a row's id or public id, an account id.
      subject text NOT NULL,
      data jsonb,
      made_in bigint NOT NULL DEFAULT txid_current(),
      status text NOT NULL DEFAULT 'pending' CONSTRAINT app_events_status CHECK (status IN ('pending', 'delivered', 'failed')),
      -- A job has been sent for it (the worker's dispatcher sets it; a retry's job is sent with its end).
      queued boolean NOT NULL DEFAULT false,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      leased_until timestamptz,
      redelivery boolean NOT NULL DEFAULT false,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz,
      failed_at timestamptz
    -- Room on each page for the lease and the rendered data to be written without a new index entry (HOT).
    ) WITH (fillfactor = 80);
    -- Three indexes written by every write that makes an event, each needed; the writes' rate with every
    -- writer subscribed is the events benchmark's target. The log, newest first, and the once-a-transaction
    -- check (app_event_record). The pending events: those no job carries yet (the dispatcher's look, every
    -- 200 ms), and those due for a while with one (the sweep); the app answers' pending count reads it too
    -- (pending events are few). The failed count reads app_events_failed.
    CREATE INDEX app_events_log ON app_events (app_id, created_at DESC, id DESC);
    CREATE INDEX app_events_due ON app_events (queued, next_attempt_at) WHERE status = 'pending';
    CREATE INDEX app_events_failed ON app_events (app_id) WHERE status = 'failed';
    CREATE INDEX app_events_finished ON app_events (coalesce(delivered_at, failed_at)) WHERE status <> 'pending';

    CREATE TABLE app_event_attempts (
      id bigserial PRIMARY KEY,
      event_id uuid NOT NULL REFERENCES app_events(id) ON DELETE CASCADE,
      attempted_at timestamptz NOT NULL DEFAULT now(),
      http_status integer,
      duration_ms integer NOT NULL,
      error text,
      outcome text NOT NULL CONSTRAINT app_event_attempts_outcome CHECK (outcome IN ('delivered', 'retrying', 'failed'))
    );
    CREATE INDEX app_event_attempts_event ON app_event_attempts (event_id, attempted_at);
    CREATE INDEX app_event_attempts_at ON app_event_attempts (attempted_at);

    CREATE FUNCTION app_events_gone() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN DELETE FROM app_events WHERE app_id = OLD.id; RETURN NULL; END $$;
    CREATE TRIGGER apps_app_events_gone AFTER DELETE ON apps FOR EACH ROW EXECUTE FUNCTION app_events_gone();

    CREATE FUNCTION app_event_scope(event_type text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE event_type ${TYPE_SCOPES.map(([type, scope]) => `WHEN '${type}' THEN ${scope ? `'${scope}'` : 'NULL'}`).join(' ')} END
    $$;

    -- One event for each of the owner's active subscriptions to the type whose app holds its scope; the
    -- first of a transaction for a thing and type stands. Only the transaction's own events can be the same
    -- (made_in), so a look at them, through the log's index (created_at is the transaction's start), does
    -- what a unique index would, with one index fewer to write. No NOTIFY: PostgreSQL commits the transactions
    -- that notify one at a time (a lock on the notify queue), which cut the subscribed writes to a third of
    -- their rate in the events benchmark; the workers look for new events every 200 ms instead.
    --
    -- Its statement's plan is made once per connection and kept until the tables are analyzed again, so it
    -- must not depend on the statistics of that moment: planned while the subscriptions and the events were
    -- analyzed empty (a new deployment; the benchmark subscribes 2,500 apps at once), it read every
    -- subscription for each event, and the subscribed writes ran at 0.6x of their rate until the next
    -- analyze. Index scans only, on indexes that leave one choice (app_event_subscriptions_owner).
    CREATE FUNCTION app_event_record(owner uuid, event_type text, event_subject text, event_data jsonb)
    RETURNS void LANGUAGE plpgsql SET enable_seqscan = off AS $$
    BEGIN
      INSERT INTO app_events (app_id, account_id, type, subject, data)
      SELECT s.app_id, owner, event_type, event_subject, event_data
        FROM app_event_subscriptions s JOIN apps a ON a.id = s.app_id
       WHERE s.account_id = owner AND s.state = 'active' AND event_type = ANY (s.types)
         AND app_event_scope(event_type) = ANY (a.scopes)
         AND NOT EXISTS (SELECT 1 FROM app_events e WHERE e.app_id = s.app_id AND e.created_at = now()
               AND e.made_in = txid_current() AND e.type = event_type AND e.subject = event_subject);
    END $$;
  `);
  for (const trigger of TRIGGERS) {
    await knex.raw(`
      CREATE FUNCTION app_event_${trigger.name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM ${trigger.body}; RETURN NULL; END $$;
      CREATE TRIGGER ${trigger.table}_app_event_${trigger.name} AFTER ${trigger.on} ON ${trigger.table}
        FOR EACH ROW ${trigger.when ? `WHEN (${trigger.when})` : ''} EXECUTE FUNCTION app_event_${trigger.name}();
    `);
  }
  await knex.raw(`
    CREATE FUNCTION app_event_list_items() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM app_event_record(l.account_id, 'list.saved', l.public_id, NULL)
         FROM lists l WHERE l.id IN (SELECT DISTINCT list_id FROM touched);
      RETURN NULL;
    END $$;
  `);
  for (const items of ITEM_EVENTS) {
    await knex.raw(`CREATE TRIGGER list_items_app_event_${items.on.toLowerCase()} AFTER ${items.on} ON list_items
      REFERENCING ${items.table} FOR EACH STATEMENT EXECUTE FUNCTION app_event_list_items()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const items of ITEM_EVENTS) {
    await knex.raw(`DROP TRIGGER list_items_app_event_${items.on.toLowerCase()} ON list_items`);
  }
  await knex.raw('DROP FUNCTION app_event_list_items()');
  for (const trigger of TRIGGERS) {
    await knex.raw(`DROP TRIGGER ${trigger.table}_app_event_${trigger.name} ON ${trigger.table}`);
    await knex.raw(`DROP FUNCTION app_event_${trigger.name}()`);
  }
  await knex.raw(`
    DROP FUNCTION app_event_record(uuid, text, text, jsonb);
    DROP FUNCTION app_event_scope(text);
    DROP TRIGGER apps_app_events_gone ON apps;
    DROP FUNCTION app_events_gone();
    DROP TABLE app_event_attempts;
    DROP TABLE app_events;
    DROP SEQUENCE app_event_seq;
    DROP TABLE app_event_subscriptions;
  `);
}

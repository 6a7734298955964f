// Notifications (DECISIONS: Notifications): what happened to a person, written in the same transaction as
// what caused it, read newest first, and streamed live (GET /notifications/stream).
//
// The stream resumes after a reconnect from `Last-Event-ID`, so each notification carries `seq`, a number
// that grows per recipient and is taken again whenever the notification changes in a way its reader
// should hear (a collapsed like bumps it). It comes from one counter row per recipient, updated in the
// writing transaction: the row lock orders that recipient's writers, so seqs commit in the order they
// were taken and a stream that has sent seq N can never later see a smaller one commit (a plain sequence
// could: two writers take 5 and 6, 6 commits first, a client resumes after 6 and 5 is lost).
// Each such write NOTIFYs `jogatina_notifications` with the recipient's id at commit; every web process
// listens once and wakes that person's open streams, which read what is new by seq.
import type { Knex } from 'knex';

const NOTIFICATION_KINDS = [
  'follow',
  'follow_request',
  'follow_accepted',
  'comment',
  'like',
  'award',
  'arcade_review',
  'infraction',
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_sequences', (t) => {
    t.uuid('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.bigInteger('seq').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('notifications', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // The recipient.
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    // Who did it (null: the service, e.g. a moderation decision). Their account's deletion takes it along.
    t.uuid('actor_id').references('accounts.id').onDelete('CASCADE');
    // What it is about, as clients name it ({kind, id} in the answer), or none.
    t.text('subject_kind');
    t.text('subject_id');
    t.jsonb('data').notNullable().defaultTo('{}');
    // Likes on one thing within an hour collapse into one notification (DECISIONS): the key names the
    // thing, so the collapsing write finds the notification to update.
    t.text('collapse_key');
    t.bigInteger('seq').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('read_at', { useTz: true });
    t.check(`kind in (${NOTIFICATION_KINDS.map((kind) => `'${kind}'`).join(', ')})`, [], 'notifications_kind_known');
    t.check('(subject_kind IS NULL) = (subject_id IS NULL)', [], 'notifications_subject_whole');
    t.unique(['account_id', 'seq'], { indexName: 'notifications_stream_order' });
  });
  // GET /notifications walks newest first; ?unread=1 and the unread count read the unread ones alone.
  await knex.raw('CREATE INDEX notifications_newest ON notifications (account_id, created_at DESC, id DESC)');
  await knex.raw(
    'CREATE INDEX notifications_unread ON notifications (account_id, created_at DESC, id DESC) WHERE read_at IS NULL',
  );
  await knex.raw(
    'CREATE INDEX notifications_collapsing ON notifications (account_id, collapse_key, created_at) WHERE collapse_key IS NOT NULL',
  );
  // A block removes the unread ones between the two; the actor's side is looked up by this.
  await knex.raw('CREATE INDEX notifications_actor ON notifications (actor_id) WHERE actor_id IS NOT NULL');
  // The retention purge (90 days).
  await knex.raw('CREATE INDEX notifications_age ON notifications (created_at)');

  await knex.raw(`CREATE FUNCTION notifications_sequenced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF TG_OP = 'UPDATE' AND NEW.created_at IS NOT DISTINCT FROM OLD.created_at
      AND NEW.data IS NOT DISTINCT FROM OLD.data AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id THEN
      -- Marking read is not news.
      NEW.seq := OLD.seq;
      RETURN NEW;
    END IF;
    INSERT INTO notification_sequences AS s (account_id, seq) VALUES (NEW.account_id, 1)
      ON CONFLICT (account_id) DO UPDATE SET seq = s.seq + 1
      RETURNING s.seq INTO NEW.seq;
    RETURN NEW;
  END $$`);
  await knex.raw(`CREATE TRIGGER notifications_sequenced BEFORE INSERT OR UPDATE ON notifications
    FOR EACH ROW EXECUTE FUNCTION notifications_sequenced()`);
  await knex.raw(`CREATE FUNCTION notifications_announced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    -- Identical payloads in one transaction are sent once, so a burst to one person wakes their streams once.
    PERFORM pg_notify('jogatina_notifications', NEW.account_id::text);
    RETURN NULL;
  END $$`);
  await knex.raw(`CREATE TRIGGER notifications_announced AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION notifications_announced()`);
  // Not UPDATE OF seq: that names the statement's columns, and seq is moved by the trigger above.
  await knex.raw(`CREATE TRIGGER notifications_announced_again AFTER UPDATE ON notifications
    FOR EACH ROW WHEN (NEW.seq <> OLD.seq) EXECUTE FUNCTION notifications_announced()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notifications');
  await knex.schema.dropTable('notification_sequences');
  await knex.raw('DROP FUNCTION notifications_announced()');
  await knex.raw('DROP FUNCTION notifications_sequenced()');
}

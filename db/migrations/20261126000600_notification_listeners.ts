// Who is listening for notifications: the accounts with a stream open, per web process. PostgreSQL
// serializes the commits of transactions that NOTIFY (one queue lock held through the commit's WAL flush),
// so a NOTIFY in every like, comment and follow made those writes queue behind each other: likes fell from
// 2,030 to 1,112 a second and comments from 1,736 to 1,105 in the content benchmark. Most people have no
// stream open when something happens to them; their notification is read when they next look, and needs
// no wake-up. So a new or changed notification NOTIFYs only when its recipient has a stream open here or on
// another process (a row below, kept fresh by that process's hub every few seconds and removed when the
// last stream closes); a row not refreshed for a minute is a process that died, and is ignored.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_listeners', (t) => {
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // The listening process's hub (a random id per process).
    t.uuid('listener').notNullable();
    t.timestamp('seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['account_id', 'listener']);
    t.index(['listener']);
  });
  await knex.raw(`CREATE OR REPLACE FUNCTION notifications_announced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    -- Identical payloads in one transaction are sent once, so a burst to one person wakes their streams once.
    IF EXISTS (SELECT 1 FROM notification_listeners l
        WHERE l.account_id = NEW.account_id AND l.seen_at > now() - interval '1 minute') THEN
      PERFORM pg_notify('jogatina_notifications', NEW.account_id::text);
    END IF;
    RETURN NULL;
  END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`CREATE OR REPLACE FUNCTION notifications_announced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    PERFORM pg_notify('jogatina_notifications', NEW.account_id::text);
    RETURN NULL;
  END $$`);
  await knex.schema.dropTable('notification_listeners');
}

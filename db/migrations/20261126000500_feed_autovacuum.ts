// The feed is read by index-only walks (migration activity_covering_walks): an item on a page that VACUUM has
// not marked all-visible costs a heap fetch on every read. PostgreSQL's defaults vacuum a table after inserts
// of a fifth of its rows, which for a feed of a million items is 200,000 writes of fetches: after the content
// benchmark's 100,000 writes, 4,391 of 4,391 items a walk passed were fetched. One per cent keeps the newest
// pages, the ones read most, marked within minutes.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE activity_items SET (autovacuum_vacuum_insert_scale_factor = 0.01,
    autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE activity_items RESET (autovacuum_vacuum_insert_scale_factor,
    autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor)`);
}

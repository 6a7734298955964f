// catalog_fold in PL/pgSQL, with the same body. As an SQL function it can never be inlined (it is declared
// IMMUTABLE around unaccent, which is only STABLE, and the planner refuses to inline a body less immutable
// than its declaration): each statement that computes it, as every new review's stored words do, parsed
// the body once to try inlining, then parsed and planned it again to run it through the SQL-function
// executor. A profile of PostgreSQL under POST /reviews put about 4% of its time there. PL/pgSQL keeps
// the body's plan for the session and evaluates it as a simple expression. pgbench, 2 clients: inserting
// a review body into a table with the same generated words, 3,500 to 3,940 a second before, 3,750 to
// 4,100 after; folding a body alone, 9,660 to 9,790 before, 11,020 to 11,880 after.
//
// The result is the same for every input, so the indexes built on it stay valid and are not rebuilt.
import type { Knex } from 'knex';

const fold = (language: 'sql' | 'plpgsql', body: string) => `
  CREATE OR REPLACE FUNCTION catalog_fold(text) RETURNS text LANGUAGE ${language} IMMUTABLE PARALLEL SAFE STRICT
  AS $$ ${body} $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(fold('plpgsql', "BEGIN RETURN lower(public.unaccent('public.unaccent'::regdictionary, $1)); END"));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(fold('sql', "SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1))"));
}

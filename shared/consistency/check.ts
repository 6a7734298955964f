// The database consistency check (`npm run op -- check`): rules that span rows, which constraints alone do
// not hold, each a query that lists the rows breaking it. It reads only; the operator decides what to do.
import type { Knex } from 'knex';

export interface Finding {
  rule: string;
  count: number;
  /** Up to 10 ids of the rows that break the rule. */
  examples: string[];
}

const RULES: Array<{ rule: string; sql: string }> = [
  {
    rule: 'an account with a username has that name as its current name in usernames',
    sql: `SELECT a.id::text AS id FROM accounts a WHERE a.username IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM usernames u WHERE u.account_id = a.id AND u.kind = 'current' AND u.name = a.username)`,
  },
  {
    rule: 'every Arcade game holds the claim of its slug',
    sql: `SELECT a.app_id::text AS id FROM arcade_apps a WHERE NOT EXISTS (
            SELECT 1 FROM arcade_claims c WHERE c.kind = 'slug' AND c.value = a.slug AND c.app_id = a.app_id)`,
  },
  {
    rule: 'a submitted or later release has its origin claimed by its own game',
    sql: `SELECT r.id::text AS id FROM arcade_releases r
          WHERE r.status IN ('submitted', 'in_review', 'approved', 'rejected', 'withdrawn', 'revoked')
            AND NOT EXISTS (SELECT 1 FROM arcade_claims c
                            WHERE c.kind = 'origin' AND c.value = r.entry_origin AND c.app_id = r.app_id)`,
  },
  {
    rule: 'a live release is an approved release of the same game',
    sql: `SELECT a.app_id::text AS id FROM arcade_apps a LEFT JOIN arcade_releases r ON r.id = a.live_release_id
          WHERE a.live_release_id IS NOT NULL AND (r.id IS NULL OR r.app_id <> a.app_id OR r.status <> 'approved')`,
  },
  {
    rule: 'a game that is not removed belongs to an existing app',
    sql: `SELECT a.app_id::text AS id FROM arcade_apps a
          WHERE a.status <> 'removed' AND NOT EXISTS (SELECT 1 FROM apps p WHERE p.id = a.app_id)`,
  },
  {
    rule: 'a store page has at most one working revision (draft or submitted)',
    sql: `SELECT app_id::text AS id FROM arcade_listings WHERE status IN ('draft', 'submitted')
          GROUP BY app_id HAVING count(*) > 1`,
  },
  {
    rule: 'a pending data event is of a game that still exists',
    sql: `SELECT e.id::text AS id FROM arcade_data_events e
          WHERE e.status = 'pending' AND NOT EXISTS (SELECT 1 FROM arcade_apps a WHERE a.app_id = e.app_id)`,
  },
  {
    rule: 'the identity key set has exactly one current and one next key',
    sql: `SELECT state AS id FROM (VALUES ('current'), ('next')) s(state)
          WHERE (SELECT count(*) FROM signing_keys k WHERE k.state = s.state) <> 1`,
  },
  {
    rule: 'a follow is not also a block between the same two accounts',
    sql: `SELECT f.follower_id::text || '>' || f.followee_id::text AS id FROM follows f
          WHERE EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = f.follower_id AND b.blocked_id = f.followee_id)
                                                 OR (b.blocker_id = f.followee_id AND b.blocked_id = f.follower_id))`,
  },
  {
    // Feeds pick their items by the stored value (migration activity_item_visibility keeps it by trigger):
    // a row written with the triggers off, or changed by hand, would show to the wrong readers.
    rule: 'an activity item stores the visibility of what it is about',
    sql: `SELECT x.id::text AS id FROM activity_items x JOIN activity_item_visibility v ON v.id = x.id
          WHERE x.visibility <> v.visibility`,
  },
  {
    // The ledger moves the balance in the statement that writes its row (migration minerals_and_awards): a row
    // written with the triggers off, or a balance changed by hand, shows minerals nobody earned or spent.
    rule: "an account's mineral balance is its ledger's sum, and its lifetime that sum without spending",
    sql: `SELECT coalesce(b.account_id, l.account_id)::text AS id FROM mineral_balances b
          FULL JOIN (SELECT account_id, sum(delta) AS balance,
                       sum(delta) FILTER (WHERE reason <> 'award_given') AS lifetime
                     FROM mineral_ledger GROUP BY account_id) l ON l.account_id = b.account_id
          WHERE coalesce(b.balance, 0) <> coalesce(l.balance, 0)
             OR coalesce(b.lifetime, 0) <> coalesce(l.lifetime, 0)`,
  },
];

export async function checkConsistency(knex: Knex): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { rule, sql } of RULES) {
    const { rows } = await knex.raw<{ rows: Array<{ id: string }> }>(sql);
    if (rows.length > 0) findings.push({ rule, count: rows.length, examples: rows.slice(0, 10).map((row) => row.id) });
  }
  return findings;
}

export const RULE_COUNT = RULES.length;

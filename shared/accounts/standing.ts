// An account's standing: its infractions and what they mean now. The spec leaves the values of `state`
// open; ours: null, `suspended` (an active Suspensão) or `banned` (a Banimento permanente).
import type { Knex } from 'knex';

export type InfractionReason = 'Aviso' | 'Suspensão' | 'Banimento permanente';

export interface InfractionRow {
  id: string;
  reason: InfractionReason;
  details: string | null;
  expires_at: Date | null;
  created_at: Date;
}

function active(infraction: InfractionRow, now: number): boolean {
  return infraction.expires_at === null || infraction.expires_at.getTime() > now;
}

/** Pure: the state and suspension that a list of infractions adds up to at `now`. */
export function standingOf(
  infractions: InfractionRow[],
  now = Date.now(),
): { suspended: boolean; state: 'suspended' | 'banned' | null } {
  const current = infractions.filter((infraction) => active(infraction, now));
  if (current.some((i) => i.reason === 'Banimento permanente')) return { suspended: true, state: 'banned' };
  if (current.some((i) => i.reason === 'Suspensão')) return { suspended: true, state: 'suspended' };
  return { suspended: false, state: null };
}

export async function accountStanding(knex: Knex, accountId: string, username: string | null) {
  const infractions: InfractionRow[] = await knex('infractions')
    .where({ account_id: accountId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('id', 'reason', 'details', 'expires_at', 'created_at');
  return {
    ...standingOf(infractions),
    infractions: infractions.length,
    infraction_history: infractions.map((i) => ({
      id: i.id,
      reason: i.reason,
      details: i.details,
      expires_at: i.expires_at?.toISOString() ?? null,
      created_at: i.created_at.toISOString(),
    })),
    username,
  };
}

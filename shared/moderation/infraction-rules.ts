// When an infraction may end (docs/api-notes.md, moderation). A Suspensão needs its end, since a
// suspension without one is what a ban is; a Banimento permanente never ends; an Aviso may lapse. Any
// end given must lie in the future: an infraction that is over before it starts changes nothing.
import type { InfractionReason } from '../accounts/standing.js';

export const INFRACTION_REASONS: readonly InfractionReason[] = ['Aviso', 'Suspensão', 'Banimento permanente'];

export interface InfractionInput {
  reason: InfractionReason;
  details?: string | null;
  /** ISO 8601 date-time, already shaped by the route's schema. */
  expires_at?: string | null;
}

export interface InfractionViolation {
  field: 'expires_at';
  reason: 'missing' | 'not_allowed' | 'out_of_range';
  message: string;
}

export function infractionRuleViolation(input: InfractionInput, now = Date.now()): InfractionViolation | null {
  const expires = input.expires_at ?? null;
  if (input.reason === 'Suspensão' && expires === null) {
    return { field: 'expires_at', reason: 'missing', message: 'A Suspensão needs expires_at: when it ends.' };
  }
  if (input.reason === 'Banimento permanente' && expires !== null) {
    return { field: 'expires_at', reason: 'not_allowed', message: 'A Banimento permanente does not end.' };
  }
  if (expires !== null && new Date(expires).getTime() <= now) {
    return { field: 'expires_at', reason: 'out_of_range', message: 'expires_at must be in the future.' };
  }
  return null;
}

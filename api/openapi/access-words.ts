// A route's access declaration said twice for the reader of the reference: as OpenAPI security
// requirements (a bearer key with its scope, the session cookie, or nobody) and as one sentence.
import type { RouteFacts } from './route-facts.js';

type Requirement = Record<string, string[]>;

export function securityOf(facts: RouteFacts): Requirement[] {
  const access = facts.access;
  if (!access) return [{}];
  switch (access.kind) {
    case 'scoped': {
      const both: Requirement[] = [{ apiKey: access.scope ? [access.scope] : [] }, { session: [] }];
      return access.anonymous ? [...both, {}] : both;
    }
    case 'public':
      return [{}, { apiKey: [] }, { session: [] }];
    case 'session':
      return [{ session: [] }];
  }
}

/** `write`: a write under /api/v1, which a session owing its second factor may not make. */
export function accessWords(facts: RouteFacts, write = false): string {
  const access = facts.access;
  const owed = write ? ' A session that still owes its second factor gets 403 `mfa_required`.' : '';
  const origin =
    (facts.ownOrigin ? ' Only the site’s own pages may call it (`Origin` is checked); keys are refused.' : '') + owed;
  if (!access) return `**Access:** anyone.${origin}`;
  const charge = access.allowance ? ` Keys are charged the **${access.allowance}** allowance.` : '';
  switch (access.kind) {
    case 'scoped': {
      const key = access.scope ? `an API key with the scope \`${access.scope}\`` : 'any live API key';
      const anyone = access.anonymous ? '; anonymous readers get what anyone may see' : '';
      return `**Access:** ${key}, or the site’s session${anyone}.${charge}${origin}`;
    }
    case 'public':
      return `**Access:** anyone; a key sent must still be live.${charge}${origin}`;
    case 'session': {
      const needs = [
        access.mfa ? 'has passed its second factor when the account has two-factor on' : null,
        access.mfaVerified ? 'was verified with two-factor' : null,
        access.recent ? 'signed in within the last 15 minutes' : null,
      ].filter(Boolean);
      const session = needs.length ? `a session that ${needs.join(' and ')}` : 'a session';
      return `**Access:** ${session}; API keys get 403 \`forbidden\`.${charge}${origin}`;
    }
  }
}

// Where a game may be hosted (spec: submit and live refusals): not in a network or on a registrar an
// operator blocked (400 `url_denied`, detail `network`), and not on a domain registered less than 30 days
// ago (409 `domain_too_new`). The host is resolved through the outbound guard's own check, so a private
// address is refused the same way; registrations come from RDAP through the guard, cached a day. When
// RDAP cannot answer, the domain is not held against the developer: an outage must not block publishing.
import type { Knex } from 'knex';
import { conflict, invalidRequest } from '../platform/errors.js';
import { checkHost } from '../platform/net/checked-host.js';
import { isOutboundRefused } from '../platform/net/outbound-refused.js';
import { domainRegistration } from '../platform/net/rdap.js';

/** Spec: a domain registered more recently than this cannot host a game. */
export const MIN_DOMAIN_AGE_DAYS = 30;

function denied(message: string) {
  return invalidRequest(message, { reason: 'url_denied', field: 'entry_url', detail: 'network' });
}

/**
 * `rdapBaseUrl`: where registrations are looked up (config `arcade.rdapBaseUrl`, read by the caller); null
 * looks nothing up.
 */
export async function refuseBlockedHost(
  knex: Knex,
  entryUrl: string,
  rdapBaseUrl: string | null,
  now = Date.now(),
): Promise<void> {
  const host = new URL(entryUrl).hostname;
  let address: string;
  try {
    address = (await checkHost(host)).address;
  } catch (error) {
    if (isOutboundRefused(error)) throw denied(`The game's host cannot be reached from here (${error.reason}).`);
    throw error;
  }
  const blocked = await knex.raw<{ rows: unknown[] }>(
    'SELECT 1 FROM arcade_blocked_networks WHERE network >>= CAST(? AS inet) LIMIT 1',
    [address],
  );
  if (blocked.rows.length > 0) throw denied('The game is hosted in a network Arcade does not accept.');
  if (!rdapBaseUrl) return;
  const registration = await domainRegistration(host, { baseUrl: rdapBaseUrl });
  if (!registration?.answered) return;
  if (registration.registrar) {
    const registrar = await knex('arcade_blocked_registrars')
      .where({ name: registration.registrar.trim().toLowerCase() })
      .first('name');
    if (registrar) throw denied('The game is on a domain of a registrar Arcade does not accept.');
  }
  if (registration.registeredAt && now - registration.registeredAt.getTime() < MIN_DOMAIN_AGE_DAYS * 86_400_000) {
    throw conflict(
      'domain_too_new',
      { field: 'entry_url' },
      `The domain must be at least ${MIN_DOMAIN_AGE_DAYS} days old.`,
    );
  }
}

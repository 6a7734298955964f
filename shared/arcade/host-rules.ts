// Where a game may be hosted (spec: submit and live refusals): not in a network or on a registrar an
// operator blocked (400 `url_denied`, detail `network`), and not on a domain registered less than 30 days
// ago (409 `domain_too_new`). The host is resolved through the outbound guard's own check, so a private
// address is refused the same way; registrations come from RDAP through the guard, cached a day. When
// RDAP cannot answer, the domain is not held against the developer: an outage must not block publishing.
//
// Every address a host resolves to is held against the blocked networks, not only the one the guard
// would connect to: DNS may hand any of them to the next lookup or to a player, so one blocked answer
// among public ones puts the host in that network. The rule covers each URL the service resolves for a
// game: the entry and data events URLs of a release (check, submit, live) and a development URL on a
// public host (its save).
import type { Knex } from 'knex';
import { conflict, invalidRequest } from '../platform/errors.js';
import { embeddedIpv4 } from '../platform/net/address-policy.js';
import { checkHost, type Resolver } from '../platform/net/checked-host.js';
import { isOutboundRefused } from '../platform/net/outbound-refused.js';
import { domainRegistration } from '../platform/net/rdap.js';
import { BlockedRegistrar } from './models.js';

/** Spec: a domain registered more recently than this cannot host a game. */
export const MIN_DOMAIN_AGE_DAYS = 30;

/** The URLs of a release that the service resolves: where the game runs and where its data events go. */
export interface ReleaseHosts {
  entry_url: string;
  data_events_url: string | null;
}

export interface HostRuleOptions {
  /** Tests: the guard's resolver (several answers, one blocked); production asks the system's. */
  resolve?: Resolver;
  /** For the domain age; tests move it. */
  now?: number;
  /**
   * A host the guard cannot take (no answer, a private address, a time-out) is let through rather than
   * refused: the check route leaves it to the check, which reports it in `error`.
   */
  passUnreachable?: boolean;
}

function denied(field: string, message: string) {
  return invalidRequest(message, { reason: 'url_denied', field, detail: 'network' });
}

/**
 * Throws 400 `url_denied` detail `network` naming `field` when any of `addresses` is in a blocked network.
 * The addresses were already checked public by the guard (checkHost). An IPv6 address that carries an
 * IPv4 one (mapped, NAT64, 6to4) is judged by both, as the guard judges it: an operator blocks IPv4
 * networks as IPv4.
 */
export async function refuseBlockedAddresses(knex: Knex, addresses: string[], field: string): Promise<void> {
  const judged = addresses.flatMap((address) => [address, embeddedIpv4(address) ?? []].flat());
  if (judged.length === 0) return;
  // One statement for all of them; the array is one bound parameter (pg sends it as inet[]).
  const blocked = await knex.raw<{ rows: unknown[] }>(
    `SELECT 1 FROM arcade_blocked_networks WHERE network >>= ANY (CAST(? AS inet[])) LIMIT 1`,
    [judged],
  );
  if (blocked.rows.length > 0) {
    throw denied(field, 'The host resolves to an address in a network Arcade does not accept.');
  }
}

/** Resolves the host of `url` through the guard and holds every answer against the blocked networks. */
async function refuseBlockedUrl(knex: Knex, url: string, field: string, options: HostRuleOptions): Promise<void> {
  const host = new URL(url).hostname;
  let addresses: string[];
  try {
    addresses = (await checkHost(host, { resolve: options.resolve })).addresses;
  } catch (error) {
    if (!isOutboundRefused(error)) throw error;
    if (options.passUnreachable) return;
    throw denied(field, `The host cannot be reached from here (${error.reason}).`);
  }
  await refuseBlockedAddresses(knex, addresses, field);
}

/**
 * The network rule for a release, entry URL first (field `entry_url`), then the data events URL (field
 * `data_events_url`) when it names another host: a check, submit and live all ask it before a check is
 * spent, since a check would connect to that network.
 */
export async function refuseBlockedNetworks(
  knex: Knex,
  release: ReleaseHosts,
  options: HostRuleOptions = {},
): Promise<void> {
  await refuseBlockedUrl(knex, release.entry_url, 'entry_url', options);
  const events = release.data_events_url;
  if (events !== null && new URL(events).hostname !== new URL(release.entry_url).hostname) {
    await refuseBlockedUrl(knex, events, 'data_events_url', options);
  }
}

/**
 * Submit and live: the network rule for both hosts, then the registrar and age of the entry URL's domain.
 * `rdapBaseUrl`: where registrations are looked up (config `arcade.rdapBaseUrl`, read by the caller); null
 * looks nothing up.
 */
export async function refuseBlockedHost(
  knex: Knex,
  release: ReleaseHosts,
  rdapBaseUrl: string | null,
  options: HostRuleOptions = {},
): Promise<void> {
  await refuseBlockedNetworks(knex, release, options);
  if (!rdapBaseUrl) return;
  const host = new URL(release.entry_url).hostname;
  const registration = await domainRegistration(host, { baseUrl: rdapBaseUrl });
  if (!registration?.answered) return;
  if (registration.registrar) {
    const registrar = await BlockedRegistrar.query(knex).findById(registration.registrar.trim().toLowerCase());
    if (registrar) throw denied('entry_url', 'The game is on a domain of a registrar Arcade does not accept.');
  }
  const now = options.now ?? Date.now();
  if (registration.registeredAt && now - registration.registeredAt.getTime() < MIN_DOMAIN_AGE_DAYS * 86_400_000) {
    throw conflict(
      'domain_too_new',
      { field: 'entry_url' },
      `The domain must be at least ${MIN_DOMAIN_AGE_DAYS} days old.`,
    );
  }
}

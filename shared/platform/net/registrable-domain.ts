// The domain someone registered, from a host name, by the Public Suffix List (tldts, private section
// included). With private suffixes a site under a hosting company's suffix (`user.github.io`,
// `game.pages.dev`) is its own registrable domain, not the company's: RDAP knows nothing of it, so the
// domain-age check treats it as unknown rather than as old as `github.io`.
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';

export interface RegistrableDomain {
  /** The registrable domain in ASCII (punycode), lower case, without a trailing dot. */
  domain: string;
  /** True when the suffix is in the list's private section (a hosting company's, not a registry's). */
  privateSuffix: boolean;
}

/** The registrable domain of a host, or null for an IP address, a single label or a bare suffix. */
export function registrableDomainOf(host: string): RegistrableDomain | null {
  // Hosts from a URL are ASCII already; a Unicode name is converted so RDAP is asked the ASCII form.
  const ascii = domainToASCII(host.trim().replace(/\.$/, ''));
  if (!ascii) return null;
  const parsed = parse(ascii, { allowPrivateDomains: true });
  if (parsed.isIp || !parsed.domain || !parsed.domain.includes('.')) return null;
  return { domain: parsed.domain, privateSuffix: parsed.isPrivate === true };
}

/** The registrable domain's name alone (see registrableDomainOf). */
export function registrableDomain(host: string): string | null {
  return registrableDomainOf(host)?.domain ?? null;
}

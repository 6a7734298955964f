// Which addresses the service may connect to when it fetches an outside URL: public unicast only. The
// lists follow the IANA special-purpose registries (RFC 6890 and successors); an address that hides an
// IPv4 address (mapped, compatible, NAT64, 6to4) is judged by that IPv4 address, because that is where
// a dual-stack host or a translator would really send the packets.
import {
  formatIpv4,
  inCidr,
  parseAddress,
  parseCidr,
  parseIpv4Loose,
  parseIpv6,
  formatIpv6,
  type Cidr,
  type ParsedAddress,
} from './ip-address.js';

export type DeniedKind =
  | 'this_network'
  | 'private'
  | 'shared'
  | 'loopback'
  | 'link_local'
  | 'ietf_protocol'
  | 'documentation'
  | 'relay'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unspecified'
  | 'unique_local'
  | 'site_local'
  | 'discard'
  | 'teredo'
  | 'orchid'
  | 'nat64_local'
  | 'segment_routing'
  | 'not_global'
  | 'unparseable';

export interface Denial {
  kind: DeniedKind;
  /** The range that matched, e.g. `10.0.0.0/8`. */
  cidr: string | null;
  /** The IPv4 address judged in place of an IPv6 one that embeds it. */
  embedded: string | null;
}

function table(rows: [string, DeniedKind][]): { cidr: Cidr; kind: DeniedKind }[] {
  return rows.map(([text, kind]) => ({ cidr: parseCidr(text), kind }));
}

// Narrower ranges first so a denial names the most specific reason (broadcast before reserved).
const IPV4_DENIED = table([
  ['0.0.0.0/8', 'this_network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'ietf_protocol'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'relay'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
]);

const IPV6_DENIED = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'nat64_local'],
  ['100::/64', 'discard'],
  ['2001::/32', 'teredo'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'orchid'],
  ['2001:20::/28', 'orchid'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment_routing'],
  ['fc00::/7', 'unique_local'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'site_local'],
  ['ff00::/8', 'multicast'],
]);

/** Only 2000::/3 is allocated for global unicast; anything else left over is not reachable publicly. */
const IPV6_GLOBAL = parseCidr('2000::/3');

/** IPv6 ranges whose low or middle bits carry an IPv4 address that decides. */
const EMBEDDING: { cidr: Cidr; extract: (groups: number[]) => number }[] = [
  { cidr: parseCidr('::ffff:0:0/96'), extract: (g) => g[6] * 65536 + g[7] },
  { cidr: parseCidr('::/96'), extract: (g) => g[6] * 65536 + g[7] },
  { cidr: parseCidr('64:ff9b::/96'), extract: (g) => g[6] * 65536 + g[7] },
  { cidr: parseCidr('2002::/16'), extract: (g) => g[1] * 65536 + g[2] },
];

/** Why an address may not be contacted, or null when it is public. Text that is no address is denied. */
export function denialOf(address: string): Denial | null {
  const parsed = parseAddress(address);
  if (!parsed) return { kind: 'unparseable', cidr: null, embedded: null };
  return denialOfParsed(parsed);
}

function denialOfParsed(parsed: ParsedAddress): Denial | null {
  if (parsed.family === 4) {
    const hit = IPV4_DENIED.find((row) => inCidr(parsed, row.cidr));
    return hit ? { kind: hit.kind, cidr: hit.cidr.text, embedded: null } : null;
  }
  // :: and ::1 sit inside ::/96 but are IPv6's own unspecified and loopback addresses.
  const own = IPV6_DENIED.find((row) => inCidr(parsed, row.cidr));
  if (own) return { kind: own.kind, cidr: own.cidr.text, embedded: null };
  const embedding = EMBEDDING.find((row) => inCidr(parsed, row.cidr));
  if (embedding) {
    const v4 = embedding.extract(parsed.v6 as number[]);
    const inner = denialOfParsed({ family: 4, v4 });
    return inner ? { ...inner, embedded: formatIpv4(v4) } : null;
  }
  if (!inCidr(parsed, IPV6_GLOBAL)) return { kind: 'not_global', cidr: null, embedded: null };
  return null;
}

const IPV6_OWN_IN_COMPATIBLE = [parseCidr('::/128'), parseCidr('::1/128')];

/**
 * The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), where the packets would really
 * go, or null. Lists of IPv4 networks (Arcade's blocked networks) judge this one too.
 */
export function embeddedIpv4(address: string): string | null {
  const parsed = parseAddress(address);
  if (!parsed || parsed.family !== 6) return null;
  const groups = parsed.v6 as number[];
  // :: and ::1 are IPv6's own unspecified and loopback addresses, not IPv4 0.0.0.0 and 0.0.0.1.
  if (IPV6_OWN_IN_COMPATIBLE.some((cidr) => inCidr(parsed, cidr))) return null;
  const embedding = EMBEDDING.find((row) => inCidr(parsed, row.cidr));
  return embedding ? formatIpv4(embedding.extract(groups)) : null;
}

export function isPublicAddress(address: string): boolean {
  return denialOf(address) === null;
}

/**
 * The address a host name spells with digits, in canonical form, or null for a real name. Catches
 * what the URL parser already normalises (decimal, octal, hex and short IPv4) and IPv6 literals, so a
 * host string from elsewhere cannot slip a numeric address past the policy as if it were a name.
 */
export function numericHostAddress(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const v4 = parseIpv4Loose(bare);
  if (v4 !== null) return formatIpv4(v4);
  const v6 = parseIpv6(bare);
  return v6 === null ? null : formatIpv6(v6);
}

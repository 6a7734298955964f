// When a domain was registered, and by which registrar, from RDAP through the outbound guard. Submitting
// and making live refuse domains registered too recently and domains of blocked registrars; both ask
// often about the same few domains, so answers are kept in memory for a day (failures for ten minutes,
// so an RDAP outage is not asked again on every check), in a cache of bounded size.
import { guardedFetch, type GuardedFetchOptions } from './guarded-fetch.js';
import { registrableDomainOf } from './registrable-domain.js';

export const DEFAULT_RDAP_BASE = 'https://rdap.org/domain/';
const ANSWER_TTL_MS = 24 * 60 * 60 * 1000;
const FAILURE_TTL_MS = 10 * 60 * 1000;
const CACHE_SIZE = 1000;
const MAX_BYTES = 512 * 1024;

export interface RdapOptions {
  /** The bootstrap service; the registrable domain is appended. rdap.org redirects to the registry. */
  baseUrl?: string;
  /** Tests: the guard's resolver and time cap. */
  resolve?: GuardedFetchOptions['resolve'];
  timeoutMs?: number;
  now?: () => number;
}

export interface DomainRegistration {
  /** The registrable domain that was looked up. */
  domain: string;
  /** null when RDAP has no registration event, does not know the domain, or could not be reached. */
  registeredAt: Date | null;
  registrar: string | null;
  /** false when RDAP could not be asked or answered nonsense: callers may choose to retry later. */
  answered: boolean;
}

interface Entry {
  value: DomainRegistration;
  expiresAt: number;
}

const cache = new Map<string, Entry>();

/** The registration date of the host's registrable domain, or null when unknown. */
export async function domainRegisteredAt(host: string, options: RdapOptions = {}): Promise<Date | null> {
  return (await domainRegistration(host, options))?.registeredAt ?? null;
}

/**
 * The registration record of the host's registrable domain; null when there is nothing RDAP could know:
 * an IP address, a single label, or a site under a private suffix (`user.github.io`), whose age is the
 * hosting company's business, not a registry's. Callers treat null like a lookup that failed.
 */
export async function domainRegistration(host: string, options: RdapOptions = {}): Promise<DomainRegistration | null> {
  const site = registrableDomainOf(host);
  if (!site || site.privateSuffix) return null;
  const { domain } = site;
  const base = options.baseUrl ?? DEFAULT_RDAP_BASE;
  const now = options.now ?? Date.now;
  const key = `${base} ${domain}`;
  const hit = cache.get(key);
  if (hit && hit.expiresAt > now()) return hit.value;

  const value = await lookUp(domain, base, options);
  cache.delete(key);
  // Map keeps insertion order, so the first key is the oldest entry.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, { value, expiresAt: now() + (value.answered ? ANSWER_TTL_MS : FAILURE_TTL_MS) });
  return value;
}

/** Tests start from an empty cache. */
export function clearRdapCache(): void {
  cache.clear();
}

async function lookUp(domain: string, base: string, options: RdapOptions): Promise<DomainRegistration> {
  const unknown = { domain, registeredAt: null, registrar: null };
  let response;
  try {
    response = await guardedFetch(`${base}${domain}`, {
      headers: { accept: 'application/rdap+json, application/json' },
      maxBytes: MAX_BYTES,
      resolve: options.resolve,
      timeoutMs: options.timeoutMs,
    });
  } catch {
    return { ...unknown, answered: false };
  }
  // 404 is an answer: the registry does not know the domain.
  if (response.status === 404) return { ...unknown, answered: true };
  if (response.status !== 200) return { ...unknown, answered: false };
  let body: RdapDomain;
  try {
    body = JSON.parse(response.body.toString('utf8')) as RdapDomain;
  } catch {
    return { ...unknown, answered: false };
  }
  return { domain, registeredAt: registrationDate(body), registrar: registrarName(body), answered: true };
}

interface RdapDomain {
  events?: { eventAction?: string; eventDate?: string }[];
  entities?: { roles?: string[]; vcardArray?: [string, unknown[][]] }[];
}

function registrationDate(body: RdapDomain): Date | null {
  const event = (Array.isArray(body.events) ? body.events : []).find((item) => item?.eventAction === 'registration');
  const date = event?.eventDate ? new Date(event.eventDate) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** The `fn` (formatted name) of the vCard of the entity with the registrar role (RFC 9083). */
function registrarName(body: RdapDomain): string | null {
  const entities = Array.isArray(body.entities) ? body.entities : [];
  const registrar = entities.find((entity) => Array.isArray(entity?.roles) && entity.roles.includes('registrar'));
  const properties = Array.isArray(registrar?.vcardArray?.[1]) ? registrar.vcardArray[1] : [];
  const fn = properties.find((property) => Array.isArray(property) && property[0] === 'fn');
  return typeof fn?.[3] === 'string' && fn[3].trim() !== '' ? fn[3].trim() : null;
}

// The URL rules of Arcade (spec: Release, Development URL, and the paragraph on internationalized names), as
// pure functions. They judge the text a developer sent; whether the host resolves to public addresses is
// the route's and the outbound guard's business (url-check.ts), not this file's.
//
// The text is split by hand rather than handed to the URL parser first: the parser would silently fix what
// we refuse (backslashes, a missing "//", "https:example.com", IP spellings, punycode it cannot decode), and
// its refusal would hide which rule was broken. Once the parts pass, the parser normalises the path.
import type { IdnHostPolicy } from '../platform/config.js';
import { invalidRequest, type ApiError } from '../platform/errors.js';
import { browserMappedHostname, isInternationalizedHostname, processHostname, type IdnDetail } from './idn.js';

export const URL_MAX_LENGTH = 512;

/**
 * What the rules take from the process rather than from the request: the outbound guard's test door
 * (config `outbound.testHosts`, refused in production), whose names are as good as public ones so tests
 * can walk the whole journey. The caller reads it and passes it in.
 */
export interface UrlRuleSettings {
  testHosts: Readonly<Record<string, string>> | null;
  /**
   * Config `arcade.idnHosts` (ARCADE_IDN_HOSTS): `refuse` turns every internationalized host name into
   * `url_denied` detail `idn`. Left out, such names are accepted when the IDN rules pass them (the default).
   */
  idnHosts?: IdnHostPolicy;
}

/** The development URL's rules also need the host the service was opened on. */
export interface OverrideUrlSettings extends UrlRuleSettings {
  serviceHost: string;
}

export type UrlDeniedDetail = IdnDetail | 'idn' | 'ip_literal' | 'not_public' | 'service_host';

/** A game URL (entry_url, data_events_url) that passed; hosts are ASCII and lowercase. */
export interface GameUrl {
  /** The normalised URL, e.g. `https://xn--bcher-kva.de/play/`. */
  url: string;
  /** `https://xn--bcher-kva.de` */
  origin: string;
  /** The origin without scheme, port kept (never here: only 443 passes, and it is the default). */
  host: string;
  /** The host as people read it, `bücher.de`, for display. */
  unicodeHost: string;
}

/** A development URL that passed. A public `hostname` still has to resolve to public addresses only. */
export interface OverrideUrl {
  url: string;
  origin: string;
  host: string;
  hostname: string;
  /** The owner's own machine: localhost, a name under .localhost, or 127.0.0.1. Never looked up. */
  loopback: boolean;
}

/** Top-level names that never reach the public internet (RFC 2606, 6761, 6762, 7686, 8375, 9476, ICANN). */
const NON_PUBLIC_TLDS = new Set([
  'localhost',
  'local',
  'internal',
  'test',
  'example',
  'invalid',
  'onion',
  'arpa',
  'alt',
  'localdomain',
  'lan',
  'home',
  'corp',
  'intranet',
  'private',
]);
/** Reserved for documentation (RFC 2606): nobody can serve a game there. */
const NON_PUBLIC_NAMES = new Set(['example.com', 'example.net', 'example.org']);

interface Refusal {
  reason: 'url_invalid' | 'url_denied';
  detail?: UrlDeniedDetail;
  message: string;
}

class UrlRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

function invalid(message: string): never {
  throw new UrlRefusal({ reason: 'url_invalid', message });
}

function denied(detail: UrlDeniedDetail, message: string): never {
  throw new UrlRefusal({ reason: 'url_denied', detail, message });
}

const DENIED_MESSAGE: Record<IdnDetail, string> = {
  idn_invalid: 'The host name breaks the rules of domain names (IDNA 2008 / UTS 46).',
  idn_confusable: 'The host name is made of characters that imitate another, ASCII, name.',
  idn_script: 'The host name mixes writing systems in one label.',
};

interface UrlParts {
  scheme: string;
  /** As sent: may be Unicode, punycode or an IP spelling; never bracketed here. */
  host: string;
  bracketed: boolean;
  port: number | null;
  /** Everything after the authority: empty or a path (query and fragment are refused before). */
  path: string;
}

/** The syntax every Arcade URL shares: length, characters, scheme://host[:port]/path, no query or fragment. */
function splitUrl(value: unknown): UrlParts {
  if (typeof value !== 'string') invalid('Give the URL as a string.');
  if ([...value].length > URL_MAX_LENGTH) invalid(`The URL is longer than ${URL_MAX_LENGTH} characters.`);
  // Spaces, controls and backslashes are what parsers disagree on; a URL people can read has none.
  if (/[\s\p{Cc}\\]/u.test(value)) invalid('The URL has spaces, control characters or backslashes.');
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/isu.exec(value);
  if (!match) invalid('Give an absolute URL, such as https://game.example.net/.');
  const [, scheme, authority, path] = match;
  if (path.includes('?')) invalid('The URL may not have a query (?...).');
  if (path.includes('#')) invalid('The URL may not have a fragment (#...).');
  if (authority.includes('@')) invalid('The URL may not carry a user name or password.');

  let host: string;
  let portText: string | undefined;
  const bracketed = authority.startsWith('[');
  if (bracketed) {
    const end = authority.indexOf(']');
    if (end < 0) invalid('The URL has an unclosed [ in its host.');
    host = authority.slice(1, end);
    const after = authority.slice(end + 1);
    if (after !== '' && !after.startsWith(':')) invalid('The URL has text after its bracketed host.');
    portText = after === '' ? undefined : after.slice(1);
  } else {
    const pieces = authority.split(':');
    if (pieces.length > 2) invalid('The URL host has more than one ":".');
    [host, portText] = pieces;
  }
  if (host === '') invalid('The URL has no host.');
  // ASCII outside letters, digits, dot and hyphen is not host syntax (%, _, *, !...); other characters are
  // left to IDNA, which maps or refuses them.
  if (!bracketed && /\p{ASCII}/u.test(host.replace(/[a-z0-9.-]/gi, ''))) {
    invalid('The host may hold only letters, digits, dots and hyphens.');
  }
  let port: number | null = null;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      invalid('The port must be a number from 1 to 65535.');
    }
    port = Number(portText);
  }
  return { scheme: scheme.toLowerCase(), host, bracketed, port, path };
}

/** The URL standard's "ends in a number": a host the browser would read as an IPv4 address in any spelling. */
function endsInNumber(hostname: string): boolean {
  const labels = hostname.split('.');
  if (labels.length > 1 && labels[labels.length - 1] === '') labels.pop();
  const last = labels[labels.length - 1];
  return /^\d+$/.test(last) || /^0x[0-9a-f]*$/i.test(last);
}

/** Hosts written as addresses, in any spelling a browser accepts (decimal, octal, hex, short, IPv6). */
function isIpLiteral(parts: UrlParts): boolean {
  if (parts.bracketed) return true;
  const mapped = browserMappedHostname(parts.host);
  return mapped !== null && endsInNumber(mapped);
}

/**
 * The IDN rules. While the operator refuses internationalized names, such a name is `idn` before anything
 * else is said about it: whether it would pass the other rules does not matter to a developer who must
 * pick an ASCII name anyway.
 */
function judgeIdn(host: string, settings: UrlRuleSettings): { ascii: string; unicode: string } {
  if (settings.idnHosts === 'refuse' && isInternationalizedHostname(host)) {
    denied('idn', 'Internationalized host names are not accepted here for now: use an ASCII (a-z, 0-9) name.');
  }
  const verdict = processHostname(host);
  if (!verdict.ok) denied(verdict.detail, DENIED_MESSAGE[verdict.detail]);
  return verdict;
}

/** A name with a dot under a top-level name that the public internet can reach. */
function assertPublicName(ascii: string, settings: UrlRuleSettings): void {
  // The outbound guard's test door (refused in production): a name it sends to a local stand-in for a
  // developer's host is as good as a public one, so tests can walk the whole journey.
  if (settings.testHosts?.[ascii]) return;
  const labels = ascii.split('.');
  const tld = labels[labels.length - 1];
  const publicTld = /^[a-z]{2,63}$/.test(tld) || /^xn--[a-z0-9-]+$/.test(tld);
  if (labels.length < 2 || !publicTld || NON_PUBLIC_TLDS.has(tld) || NON_PUBLIC_NAMES.has(labels.slice(-2).join('.'))) {
    denied('not_public', 'The host must be a public domain name, not a local, reserved or single-label one.');
  }
}

/** The parser normalises the path (dot segments, percent-encoding); the result is checked for length again. */
function build(scheme: string, ascii: string, port: number | null, path: string): URL {
  let url: URL;
  try {
    url = new URL(`${scheme}://${ascii}${port === null ? '' : `:${port}`}${path}`);
  } catch {
    invalid('The URL cannot be parsed.');
  }
  if (url.href.length > URL_MAX_LENGTH) invalid(`The URL is longer than ${URL_MAX_LENGTH} characters once normalised.`);
  return url;
}

function toApiError(error: unknown, field: string): ApiError {
  if (!(error instanceof UrlRefusal)) throw error;
  const { reason, detail, message } = error.refusal;
  return invalidRequest(message, { reason, field, detail });
}

function gameUrl(value: unknown, settings: UrlRuleSettings): { parts: UrlParts; url: URL; unicode: string } {
  const parts = splitUrl(value);
  if (parts.scheme !== 'https') invalid('The URL must use https.');
  if (parts.port !== null && parts.port !== 443) invalid('The URL must use the port of https, 443.');
  if (isIpLiteral(parts)) denied('ip_literal', 'The host must be a domain name, not an IP address.');
  const { ascii, unicode } = judgeIdn(parts.host, settings);
  assertPublicName(ascii, settings);
  return { parts, url: build('https', ascii, null, parts.path), unicode };
}

/**
 * entry_url and data_events_url: https on port 443, no query, fragment or credentials, up to 512 characters,
 * a public domain name that passes the IDN rules. Throws 400 `invalid_request` with reason `url_invalid` or
 * `url_denied` (with `detail`) and `field`.
 */
export function checkGameUrl(value: unknown, field: string, settings: UrlRuleSettings): GameUrl {
  try {
    const { url, unicode } = gameUrl(value, settings);
    return { url: url.href, origin: url.origin, host: url.host, unicodeHost: unicode };
  } catch (error) {
    throw toApiError(error, field);
  }
}

/**
 * A third party's origin: the game URL rules, and nothing after the host but an optional "/" (the spec
 * lists origins; a path would suggest a narrower grant than the browser gives). Returns e.g.
 * `https://cdn.example.net`.
 */
export function checkThirdPartyOrigin(
  value: unknown,
  field: string,
  settings: UrlRuleSettings,
): { origin: string; host: string } {
  try {
    const { parts, url } = gameUrl(value, settings);
    if (parts.path !== '' && parts.path !== '/') invalid('Give an origin (https://host), without a path.');
    return { origin: url.origin, host: url.host };
  } catch (error) {
    throw toApiError(error, field);
  }
}

function isLoopbackName(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}

const LOOPBACK_ADDRESS = '127.0.0.1';

/**
 * The service's own host, "host[:port]" as the request named it. On the owner's machine the port tells
 * two servers apart (the service on localhost:3000, the game on localhost:5173); on a public name it does
 * not: cookies and "same site" ignore ports, so the name and every name under it are refused.
 */
function isServiceHost(hostname: string, port: number, loopback: boolean, serviceHost: string): boolean {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(serviceHost.trim().toLowerCase());
  if (!match || match[1] === '') return false;
  const serviceName = match[1].startsWith('[') ? match[1] : (browserMappedHostname(match[1]) ?? match[1]);
  const serviceLoopback =
    isLoopbackName(serviceName) || serviceName === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(serviceName);
  if (serviceLoopback || loopback) {
    if (!(serviceLoopback && loopback)) return false;
    return match[2] === undefined ? port === 80 || port === 443 : Number(match[2]) === port;
  }
  return hostname === serviceName || hostname.endsWith(`.${serviceName}`);
}

/**
 * The development URL (spec: PUT .../override): up to 512 characters, no query, fragment or credentials;
 * http or https on the owner's machine (localhost, *.localhost, 127.0.0.1; any port), or https on a public
 * name (any port); never another IP address, nor the host the service was opened on. Refusals name field
 * `url`. Nothing is resolved here: a public `hostname` is for the route to look up.
 */
export function checkOverrideUrl(value: unknown, settings: OverrideUrlSettings): OverrideUrl {
  try {
    const parts = splitUrl(value);
    if (parts.scheme !== 'http' && parts.scheme !== 'https') invalid('The URL must use http or https.');
    let ascii: string;
    let loopback: boolean;
    if (isIpLiteral(parts)) {
      // The spec names one address; ::1 and other spellings of 127.0.0.1 are refused, localhost covers both.
      if (parts.bracketed || browserMappedHostname(parts.host) !== LOOPBACK_ADDRESS) {
        denied('ip_literal', 'Use localhost, a name under .localhost or 127.0.0.1; no other address is accepted.');
      }
      ascii = LOOPBACK_ADDRESS;
      loopback = true;
    } else {
      ascii = judgeIdn(parts.host, settings).ascii;
      loopback = isLoopbackName(ascii);
      if (!loopback) {
        if (parts.scheme !== 'https') invalid('A URL on a public host must use https.');
        assertPublicName(ascii, settings);
      }
    }
    const port = parts.port ?? (parts.scheme === 'https' ? 443 : 80);
    if (isServiceHost(ascii, port, loopback, settings.serviceHost)) {
      denied('service_host', 'The development URL cannot be on the host of this service.');
    }
    const url = build(parts.scheme, ascii, parts.port, parts.path);
    return { url: url.href, origin: url.origin, host: url.host, hostname: url.hostname, loopback };
  } catch (error) {
    throw toApiError(error, 'url');
  }
}

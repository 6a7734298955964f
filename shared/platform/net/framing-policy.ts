// Whether a page lets the site frame it, read from its response headers the way a browser would
// (CSP Level 3, "frame-ancestors"): a check that called a frameable page unframeable, or the reverse,
// would fail good games or pass games that open as a blank frame. DECISIONS adds one rule of its own:
// any X-Frame-Options header fails, whatever its value, because browsers disagree on ALLOW-FROM.

export interface FramingVerdict {
  ok: boolean;
  signals: string[];
}

/**
 * @param headers lower-case response headers (repeated ones joined with ", ")
 * @param pageUrl the URL that answered (its origin is 'self')
 * @param framerOrigin the site's own origin, PUBLIC_URL
 */
export function framingVerdict(headers: Record<string, string>, pageUrl: string, framerOrigin: string): FramingVerdict {
  const signals: string[] = [];
  if ((headers['x-frame-options'] ?? '').trim() !== '') signals.push('x_frame_options');
  const framer = new URL(framerOrigin);
  const self = new URL(pageUrl);
  // Each comma-separated policy is enforced on its own; every one naming frame-ancestors must allow us.
  for (const sources of frameAncestorLists(headers['content-security-policy'] ?? '')) {
    if (!sourceListAllows(sources, framer, self)) {
      signals.push('frame_ancestors_excludes_site');
      break;
    }
  }
  return { ok: signals.length === 0, signals };
}

/** The frame-ancestors source list of every policy that has one. */
export function frameAncestorLists(header: string): string[][] {
  const lists: string[][] = [];
  for (const policy of header.split(',')) {
    const seen = new Set<string>();
    for (const directive of policy.split(';')) {
      const [name, ...sources] = directive.trim().split(/[\t\n\f\r ]+/);
      if (!name) continue;
      const lower = name.toLowerCase();
      // A repeated directive is ignored: only its first occurrence in a policy counts.
      if (seen.has(lower)) continue;
      seen.add(lower);
      if (lower === 'frame-ancestors') lists.push(sources.filter(Boolean));
    }
  }
  return lists;
}

export function sourceListAllows(sources: string[], url: URL, self: URL): boolean {
  if (sources.length === 0) return false;
  if (sources.length === 1 && sources[0].toLowerCase() === "'none'") return false;
  return sources.some((source) => sourceAllows(source, url, self));
}

const SCHEME_SOURCE = /^([a-z][a-z0-9+.-]*):$/i;
const HOST_SOURCE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d+|\*))?(\/[^]*)?$/i;

function sourceAllows(source: string, url: URL, self: URL): boolean {
  const lower = source.toLowerCase();
  if (lower === "'self'") return selfAllows(url, self);
  if (lower === '*') return ['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol) || url.protocol === self.protocol;
  if (lower.startsWith("'")) return false;
  const scheme = SCHEME_SOURCE.exec(lower);
  if (scheme) return schemeAllows(`${scheme[1]}:`, url.protocol);
  const host = HOST_SOURCE.exec(lower);
  if (!host) return false;
  const [, hostScheme, hostPart, port] = host;
  // Paths are ignored: an ancestor is an origin, so only scheme, host and port can decide.
  if (hostScheme ? !schemeAllows(`${hostScheme}:`, url.protocol) : !schemeAllows(self.protocol, url.protocol)) {
    return false;
  }
  return hostAllows(hostPart, url.hostname) && portAllows(port, url);
}

/** A scheme allows itself and its secure upgrade (http: allows https:, ws: allows wss:). */
function schemeAllows(expression: string, actual: string): boolean {
  if (expression === actual) return true;
  return (expression === 'http:' && actual === 'https:') || (expression === 'ws:' && actual === 'wss:');
}

function hostAllows(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return host === pattern;
}

function portAllows(port: string | undefined, url: URL): boolean {
  if (port === '*') return true;
  const actual = url.port === '' ? defaultPort(url.protocol) : Number(url.port);
  if (port === undefined) return url.port === '';
  if (Number(port) === actual) return true;
  // An http source's port 80 also allows the https upgrade on 443.
  return port === '80' && url.protocol === 'https:' && actual === 443;
}

function defaultPort(protocol: string): number | null {
  return ({ 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 } as Record<string, number>)[protocol] ?? null;
}

/** 'self' is the page's own origin, also reached over the secure upgrade of its scheme. */
function selfAllows(url: URL, self: URL): boolean {
  if (url.origin === self.origin) return true;
  return (
    url.hostname === self.hostname &&
    schemeAllows(self.protocol, url.protocol) &&
    self.port === '' &&
    url.port === '' &&
    self.protocol !== url.protocol
  );
}

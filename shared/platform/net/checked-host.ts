// Turns a URL's host into the one address the guard will connect to. The host is resolved once, every
// answer must be public (one private answer among public ones refuses the host: a resolver could hand
// the private one to the next lookup), and the caller connects to the returned address, never to the
// name again, so a DNS answer that changes between check and connect (rebinding) cannot redirect it.
import { lookup } from 'node:dns/promises';
import { denialOf, numericHostAddress } from './address-policy.js';
import { OutboundRefused } from './outbound-refused.js';
import { cachingResolver } from './resolver-cache.js';
import { doorEntry } from './test-door.js';

/**
 * Every address a host name resolves to. Injected by tests; the default asks the system resolver. An
 * injected resolver answers for door names too, so a test can rebind a name that reaches a local server.
 */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface CheckedHost {
  hostname: string;
  /** The address to connect to: the first answer. */
  address: string;
  /**
   * Every answer, the first included, each checked public: rules of their own (Arcade's blocked networks)
   * must judge them all, since the next lookup, or a client elsewhere, may get any of them.
   */
  addresses: string[];
  /** Set when the test door moved the port; otherwise the URL's port applies. */
  port: number | null;
  /** Whether the host is an IP literal (then TLS sends no server name). */
  literal: boolean;
}

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

/** The system resolver's answers, kept briefly (resolver-cache.ts): what the guard asks unless told otherwise. */
const defaultResolver = cachingResolver(systemResolver);

export interface CheckHostOptions {
  resolve?: Resolver;
  signal?: AbortSignal;
  /** For messages: the URL being fetched. */
  url?: string;
}

/** The checked address for a host (a URL's `hostname`), or OutboundRefused. */
export async function checkHost(host: string, options: CheckHostOptions = {}): Promise<CheckedHost> {
  const url = options.url ?? null;
  // A trailing dot names the same host but is no valid TLS server name.
  const hostname = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (hostname === '') throw new OutboundRefused('url_invalid', 'The URL has no host.', url);

  // A numeric host is judged by its value; no resolver sees it, and the door never opens for it.
  const numeric = numericHostAddress(hostname);
  if (numeric !== null) {
    refuseDenied(hostname, numeric, false, url);
    return { hostname, address: numeric, addresses: [numeric], port: null, literal: true };
  }

  const door = doorEntry(hostname);
  let answers: string[];
  if (options.resolve || !door) {
    try {
      answers = await withSignal((options.resolve ?? defaultResolver)(hostname), options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw new OutboundRefused('timeout', 'The host name took too long to resolve.', url);
      throw new OutboundRefused('dns_failed', `The host name ${hostname} did not resolve.`, url, error);
    }
  } else {
    answers = door.addresses;
  }
  if (answers.length === 0) throw new OutboundRefused('dns_failed', `The host name ${hostname} has no address.`, url);
  for (const answer of answers) refuseDenied(hostname, answer, door !== null, url);
  const addresses = answers.map(stripZone);
  return { hostname, address: addresses[0], addresses, port: door?.port ?? null, literal: false };
}

function refuseDenied(hostname: string, address: string, throughDoor: boolean, url: string | null): void {
  const denial = denialOf(address);
  if (!denial) return;
  // The door lets a test name reach a server on the test machine; nothing else private.
  if (throughDoor && denial.kind === 'loopback') return;
  const range = denial.cidr ? ` (${denial.kind}, ${denial.cidr})` : ` (${denial.kind})`;
  throw new OutboundRefused('address_denied', `${hostname} resolves to ${address}, which is not public${range}.`, url);
}

function stripZone(address: string): string {
  const zone = address.indexOf('%');
  return zone === -1 ? address : address.slice(0, zone);
}

/** The system resolver cannot be cancelled; stop waiting for it when the time cap passes. */
function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

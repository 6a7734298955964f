// Names the hosting provider behind a checked URL, from the response headers or the address it was
// served from, using the data file beside this one. Making a release live requires the same provider
// as at approval, so a name must stay stable for a host that has not moved: headers first (they name
// the host even behind another CDN), then address ranges, in the file's order.
import { readFileSync } from 'node:fs';
import { projectFile } from '../project-root.js';
import { inCidr, parseAddress, parseCidr, type Cidr } from './ip-address.js';

interface HeaderSignature {
  name: string;
  pattern: RegExp | null;
}

interface Provider {
  name: string;
  headers: HeaderSignature[];
  ranges: Cidr[];
}

interface ProviderFile {
  providers: { name: string; headers: { name: string; pattern?: string }[]; ranges: string[] }[];
}

export const UNKNOWN = 'unknown';

const PROVIDERS: Provider[] = load();

function load(): Provider[] {
  const file = JSON.parse(readFileSync(projectFile('shared/platform/net/providers.json'), 'utf8')) as ProviderFile;
  return file.providers.map((provider) => ({
    name: provider.name,
    headers: provider.headers.map((header) => ({
      name: header.name.toLowerCase(),
      pattern: header.pattern ? new RegExp(header.pattern, 'i') : null,
    })),
    ranges: provider.ranges.map(parseCidr),
  }));
}

/** The provider's short name (`cloudflare`, `github-pages`, ...) or `unknown`. */
export function providerOf(address: string | null, headers: Record<string, string>): string {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const provider of PROVIDERS) {
    if (provider.headers.some((signature) => headerMatches(signature, lower))) return provider.name;
  }
  const match = address === null ? null : rangeOf(address);
  return match ? match.provider : UNKNOWN;
}

/** The published range holding the address (e.g. `104.16.0.0/13`), or `unknown`. */
export function networkOf(address: string | null): string {
  const match = address === null ? null : rangeOf(address);
  return match ? match.cidr : UNKNOWN;
}

function headerMatches(signature: HeaderSignature, headers: Record<string, string>): boolean {
  const value = headers[signature.name];
  if (value === undefined) return false;
  return signature.pattern === null || signature.pattern.test(value);
}

function rangeOf(address: string): { provider: string; cidr: string } | null {
  const parsed = parseAddress(address);
  if (!parsed) return null;
  for (const provider of PROVIDERS) {
    const range = provider.ranges.find((cidr) => inCidr(parsed, cidr));
    if (range) return { provider: provider.name, cidr: range.text };
  }
  return null;
}

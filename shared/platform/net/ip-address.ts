// Parsing of IP address text into numbers, written out by hand because ipaddr.js is not a dependency and
// node:net's isIP only says yes or no: the policy needs the value, every spelling a URL or libc accepts,
// and the IPv4 address hidden inside IPv4-mapped, compatible, NAT64 and 6to4 IPv6 addresses.

/** An IPv6 address as eight 16-bit groups. */
export type Ipv6Groups = number[];

export interface ParsedAddress {
  family: 4 | 6;
  /** IPv4: a uint32. */
  v4?: number;
  /** IPv6: eight groups. */
  v6?: Ipv6Groups;
}

const DOTTED_QUAD = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Strict dotted-quad IPv4 (what a resolver answers): no leading zeros, four parts. */
export function parseIpv4(text: string): number | null {
  if (!DOTTED_QUAD.test(text)) return null;
  return text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

/**
 * Every IPv4 spelling that inet_aton and the WHATWG URL parser accept: one to four parts, each decimal,
 * octal (leading 0) or hex (0x), the last part filling the remaining bytes, an optional trailing dot.
 * `2130706433`, `0177.0.0.1`, `0x7f.1` and `127.1` all give 127.0.0.1.
 */
export function parseIpv4Loose(text: string): number | null {
  const parts = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = numericPart(part);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((value) => value > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((value, part, index) => value + part * 256 ** (3 - index), 0) + last;
}

function numericPart(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part, 8);
  if (/^(?:0|[1-9]\d*)$/.test(part)) return Number(part);
  return null;
}

/** IPv6 text, with or without brackets and a zone (`fe80::1%eth0`), an IPv4 tail allowed. */
export function parseIpv6(input: string): Ipv6Groups | null {
  let text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (!text.includes(':')) return null;

  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (v4 === null) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    text = text.slice(0, lastColon + 1);
    // A single colon only separated the IPv4 part; a double one is the zero run and stays.
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }

  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (head === null || rest === null) return null;
  if (halves.length === 1) return head.length + tail.length === 8 ? [...head, ...tail] : null;
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...rest, ...tail];
}

function groupsOf(text: string): number[] | null {
  if (text === '') return [];
  const result: number[] = [];
  for (const group of text.split(':')) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    result.push(parseInt(group, 16));
  }
  return result;
}

/** Any literal address: strict IPv4, IPv6 (bracketed or not). Loose IPv4 spellings are not answers. */
export function parseAddress(text: string): ParsedAddress | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { family: 4, v4 };
  const v6 = parseIpv6(text);
  return v6 === null ? null : { family: 6, v6 };
}

export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** Compressed IPv6 text (longest zero run as `::`), enough for messages and CIDR descriptions. */
export function formatIpv6(groupList: Ipv6Groups): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groupList[start + length] === 0) length++;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = groupList.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Whether an address lies in a CIDR, both already parsed; families must agree. */
export function inCidr(address: ParsedAddress, cidr: Cidr): boolean {
  if (address.family !== cidr.family) return false;
  if (address.family === 4) {
    if (cidr.prefix === 0) return true;
    const mask = cidr.prefix === 32 ? 0xffffffff : ~(0xffffffff >>> cidr.prefix) >>> 0;
    return ((address.v4 as number) & mask) >>> 0 === ((cidr.base.v4 as number) & mask) >>> 0;
  }
  let bits = cidr.prefix;
  for (let index = 0; index < 8 && bits > 0; index++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((address.v6 as Ipv6Groups)[index] & mask) !== ((cidr.base.v6 as Ipv6Groups)[index] & mask)) return false;
  }
  return true;
}

export interface Cidr {
  text: string;
  family: 4 | 6;
  base: ParsedAddress;
  prefix: number;
}

export function parseCidr(text: string): Cidr {
  const [addressText, prefixText] = text.split('/');
  const base = parseAddress(addressText);
  const prefix = Number(prefixText);
  if (!base || !Number.isInteger(prefix) || prefix < 0 || prefix > (base.family === 4 ? 32 : 128)) {
    throw new Error(`not a CIDR: ${text}`);
  }
  return { text, family: base.family, base, prefix };
}

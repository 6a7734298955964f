// The guard's test door (config().outbound): tests name a host and the loopback address and port of a
// local https server standing in for it, and a CA file that signs that server's certificate. The
// configuration already refuses both in production, so in production this file answers "no door".
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { config } from '../config.js';

export interface DoorEntry {
  address: string;
  /** The door may also give a port (`name=127.0.0.1:8443`), so URLs keep port 443 as the spec wants. */
  port: number | null;
}

/** The door's entry for a host name, or null when the name goes through real DNS. */
export function doorEntry(hostname: string): DoorEntry | null {
  const hosts = config().outbound.testHosts;
  const value = hosts?.[hostname.toLowerCase().replace(/\.$/, '')];
  if (!value) return null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) return { address: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : null };
  const withPort = /^([^:]+):(\d+)$/.exec(value);
  if (withPort) return { address: withPort[1], port: Number(withPort[2]) };
  return { address: value, port: null };
}

const caCache = new Map<string, string[]>();

/** The authorities to trust: null for Node's default store, or that store plus the door's test CA. */
export function trustedAuthorities(): string[] | null {
  const file = config().outbound.testCaFile;
  if (!file) return null;
  let list = caCache.get(file);
  if (!list) {
    list = [...rootCertificates, readFileSync(file, 'utf8')];
    caCache.set(file, list);
  }
  return list;
}

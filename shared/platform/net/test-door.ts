// The guard's test door (config().outbound): tests name a host and the loopback address and port of a
// local https server standing in for it, and a CA file that signs that server's certificate. The
// configuration already refuses both in production, so in production this file answers "no door".
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { config } from '../config.js';

export interface DoorEntry {
  /** The address connected to: the first answer. */
  address: string;
  /** The door may also give a port (`name=127.0.0.1:8443`), so URLs keep port 443 as the spec wants. */
  port: number | null;
  /**
   * Every answer the name gets, the first included: `name=127.0.0.1:8443|127.0.0.2` answers two, as a DNS
   * server may, so a test can show that a rule judges each answer and not only the one connected to.
   */
  addresses: string[];
}

/** One answer, `address`, `address:port` or `[v6]:port`. */
function answerOf(text: string): { address: string; port: number | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { address: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : null };
  const withPort = /^([^:]+):(\d+)$/.exec(text);
  if (withPort) return { address: withPort[1], port: Number(withPort[2]) };
  return { address: text, port: null };
}

/** The door's entry for a host name, or null when the name goes through real DNS. */
export function doorEntry(hostname: string): DoorEntry | null {
  const hosts = config().outbound.testHosts;
  const value = hosts?.[hostname.toLowerCase().replace(/\.$/, '')];
  if (!value) return null;
  // The port goes with the first answer, the one the guard connects to; later ones are only judged.
  const answers = value.split('|').map((text) => answerOf(text.trim()));
  return { address: answers[0].address, port: answers[0].port, addresses: answers.map((answer) => answer.address) };
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

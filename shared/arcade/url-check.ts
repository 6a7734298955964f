// The URL check of a release (DECISIONS, Arcade: checks): the proof file and the entry URL fetched now
// through the outbound guard, turned into the spec's Check object. It never throws for anything the
// developer's host does: a refused address, a broken certificate or a time-out fails the check with
// `error` set, so the route and the url.check job always have a Check to store and show.
import { createHash } from 'node:crypto';
import { framingVerdict } from '../platform/net/framing-policy.js';
import { guardedFetch, type GuardedFetchOptions, type GuardedResponse } from '../platform/net/guarded-fetch.js';
import { OutboundRefused, type RefusalReason } from '../platform/net/outbound-refused.js';
import { networkOf, providerOf, UNKNOWN } from '../platform/net/providers.js';

export const PROOF_PATH = '/.well-known/jogatina-arcade.txt';
export const PROOF_MAX_BYTES = 4 * 1024;

export interface Check {
  passed: boolean;
  proof_ok: boolean;
  redirect_ok: boolean;
  framing_ok: boolean;
  /** The entry's final status, null when no answer came. */
  status_code: number | null;
  /** The URL the entry ended on after redirects (or the redirect target that was refused). */
  location: string | null;
  content_type: string | null;
  entry_sha256: string | null;
  changed_since_approval: boolean;
  provider: string;
  network: string;
  /** Short words explaining failures and observations, e.g. `proof_missing`, `x_frame_options`. */
  signals: string[];
  /** The guard's refusal reason (`address_denied`, `timeout`, ...) when the host could not be checked. */
  error: string | null;
}

export interface UrlCheckInput {
  appId: string;
  entryUrl: string;
  /** PUBLIC_URL's origin: the page that frames the game. */
  publicOrigin: string;
  /** The entry hash of the check at approval, to tell whether the game changed since. */
  approvedSha256?: string | null;
  /** The provider at approval; a different one now is a signal (making live refuses it). */
  approvedProvider?: string | null;
}

export interface UrlCheckDeps {
  /** Tests: the guard's resolver and a shorter time cap. */
  resolve?: GuardedFetchOptions['resolve'];
  timeoutMs?: number;
}

export interface UrlCheckOutcome {
  check: Check;
  /** The address the entry was served from, for the blocked-networks rule; null when none answered. */
  address: string | null;
}

/** The spec's Check for a release's entry URL. */
export async function runUrlCheck(input: UrlCheckInput, deps: UrlCheckDeps = {}): Promise<Check> {
  return (await inspectEntryUrl(input, deps)).check;
}

/** The Check plus what the routes need beside it (the serving address). */
export async function inspectEntryUrl(input: UrlCheckInput, deps: UrlCheckDeps = {}): Promise<UrlCheckOutcome> {
  const base = { resolve: deps.resolve, timeoutMs: deps.timeoutMs };
  let entryOrigin: string;
  try {
    entryOrigin = new URL(input.entryUrl).origin;
  } catch {
    return { check: failedCheck('url_invalid', null), address: null };
  }
  // Both fetches run at once so a check takes one time cap, not two.
  const [proof, entry] = await Promise.all([
    attempt(
      guardedFetch(`${entryOrigin}${PROOF_PATH}`, { ...base, followRedirects: false, maxBytes: PROOF_MAX_BYTES }),
    ),
    attempt(guardedFetch(input.entryUrl, base)),
  ]);

  const signals: string[] = [];
  const proofOk = proofVerdict(proof, input.appId, signals);
  if (entry instanceof OutboundRefused) {
    signals.push(`entry_${entry.reason}`);
    const check = failedCheck(entry.reason, entry.url, signals);
    check.proof_ok = proofOk;
    check.redirect_ok = entry.url !== null && sameOrigin(entry.url, entryOrigin);
    return { check, address: null };
  }

  const redirectOk = sameOrigin(entry.url, entryOrigin);
  if (entry.redirects.length > 0) signals.push(redirectOk ? 'redirected_within_origin' : 'redirected_to_other_origin');
  if (entry.status !== 200) signals.push(`status_${entry.status}`);
  const contentType = entry.headers['content-type'] ?? null;
  const html = isHtml(contentType);
  if (!html) signals.push('not_html');
  const framing = framingVerdict(entry.headers, entry.url, input.publicOrigin);
  signals.push(...framing.signals);

  const sha256 = createHash('sha256').update(entry.body).digest('hex');
  const changed = input.approvedSha256 != null && input.approvedSha256 !== sha256;
  if (changed) signals.push('changed_since_approval');
  const provider = providerOf(entry.address, entry.headers);
  if (input.approvedProvider != null && input.approvedProvider !== provider) signals.push('provider_changed');

  // A proof that could not be fetched for network reasons says the host is unreachable, not the proof.
  const error = proof instanceof OutboundRefused && proof.reason !== 'too_large' ? proof.reason : null;
  return {
    check: {
      passed: error === null && entry.status === 200 && html && proofOk && redirectOk && framing.ok,
      proof_ok: proofOk,
      redirect_ok: redirectOk,
      framing_ok: framing.ok,
      status_code: entry.status,
      location: entry.url,
      content_type: contentType,
      entry_sha256: sha256,
      changed_since_approval: changed,
      provider,
      network: networkOf(entry.address),
      signals,
      error,
    },
    address: entry.address,
  };
}

async function attempt(fetching: Promise<GuardedResponse>): Promise<GuardedResponse | OutboundRefused> {
  try {
    return await fetching;
  } catch (error) {
    if (error instanceof OutboundRefused) return error;
    // The guard maps every failure it knows; anything else is still the host's problem, not a crash.
    return new OutboundRefused('bad_response', 'The fetch failed unexpectedly.', null, error);
  }
}

/** DECISIONS: 200, no redirect, at most 4 KB, and this app's id alone on one of its lines. */
function proofVerdict(proof: GuardedResponse | OutboundRefused, appId: string, signals: string[]): boolean {
  if (proof instanceof OutboundRefused) {
    signals.push(proof.reason === 'too_large' ? 'proof_too_large' : `proof_${proof.reason}`);
    return false;
  }
  if (proof.status >= 300 && proof.status < 400) {
    signals.push('proof_redirected');
    return false;
  }
  if (proof.status !== 200) {
    signals.push(proof.status === 404 ? 'proof_missing' : `proof_status_${proof.status}`);
    return false;
  }
  const wanted = appId.trim().toLowerCase();
  const lines = proof.body
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase());
  if (lines.includes(wanted)) return true;
  signals.push('proof_id_absent');
  return false;
}

function failedCheck(error: RefusalReason, location: string | null, signals: string[] = []): Check {
  return {
    passed: false,
    proof_ok: false,
    redirect_ok: false,
    framing_ok: false,
    status_code: null,
    location,
    content_type: null,
    entry_sha256: null,
    changed_since_approval: false,
    provider: UNKNOWN,
    network: UNKNOWN,
    signals,
    error,
  };
}

function isHtml(contentType: string | null): boolean {
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return media === 'text/html' || media === 'application/xhtml+xml';
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

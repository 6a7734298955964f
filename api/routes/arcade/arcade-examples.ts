// Example values for the reference's Arcade answers, shaped as shared/arcade/presenters.ts, app-record.ts,
// eligibility.ts, override.ts and grants.ts build them. One game, Rocket Garden, runs through all of them.
import type { ErrorRef } from '../../openapi/route-facts.js';

export const APP_ID = '5f1c2a9e-8d3b-4c71-9a0e-2b6f4d8c1e37';
export const RELEASE_ID = '0b7e4c2a-91d5-4f3e-8a6b-c2d9e1f07a54';
export const LISTING_ID = '9d2f6a41-3c8e-4b57-a1d0-7e5b3c9f2a18';
const MEDIA = 'https://jogatina.example/media/arcade';

/** The game's app is not the caller's (or has no game): developerGame() and ownGame(). */
export const GAME: ErrorRef[] = ['not_found:app_not_found'];
/** A developer move on a removed game (developerGame's `move` rule; DECISIONS: Fine print). */
export const MOVE: ErrorRef[] = ['conflict:app_removed'];
/** Listing, media, release, check, submit, live and override routes (spec: Endpoints). */
export const PUBLISHING: ErrorRef[] = ['forbidden:publisher_blocked'];
/** Submitting and making live need the current developer terms. */
export const TERMS: ErrorRef[] = ['forbidden:terms_required'];
/** A fresh check: the day's 20 checks per app, the check queue full, or no answer from the worker in 30 s. */
export const CHECK: ErrorRef[] = ['rate_limited:rate_limited', 'rate_limited:busy', 'internal:check_unavailable'];

export const check = {
  id: '7a3e9c15-2b4d-4f80-9c6a-1e8d5b2f0c93',
  passed: true,
  proof_ok: true,
  redirect_ok: true,
  framing_ok: true,
  status_code: 200,
  location: 'https://rocketgarden.example.net/play/',
  content_type: 'text/html; charset=utf-8',
  entry_sha256: '3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855a',
  changed_since_approval: false,
  provider: 'netlify',
  network: '75.2.60.0/24',
  signals: [],
  error: null,
  checked_at: '2026-11-20T14:02:09.000Z',
};

export const release = {
  id: RELEASE_ID,
  number: 2,
  status: 'approved',
  entry_url: 'https://rocketgarden.example.net/play/',
  entry_origin: 'https://rocketgarden.example.net',
  capabilities: ['pointer-lock'],
  scopes: ['identify'],
  orientation: 'landscape',
  platforms: ['desktop', 'mobile'],
  third_parties: [{ origin: 'https://cdn.example.org', purpose: 'Fonts and sound effects' }],
  data_events_url: 'https://api.rocketgarden.example.net/jogatina/events',
  notes: 'Sign in is not needed; press Space to launch.',
  created_at: '2026-11-18T10:21:44.000Z',
  updated_at: '2026-11-19T09:12:30.000Z',
  submitted_at: '2026-11-18T10:40:02.000Z',
  reviewed_at: '2026-11-19T09:12:30.000Z',
  approved_at: '2026-11-19T09:12:30.000Z',
  went_live_at: null,
  review: { decision: 'approve', reasons: [], note: null },
  last_check: check,
  live: false,
  previous_live: false,
  can_make_live: true,
  can_test: true,
};

export const listing = {
  number: 3,
  status: 'draft',
  name: 'Rocket Garden',
  tagline: 'Grow rockets, launch them, keep the garden alive.',
  description: {
    default_locale: 'pt-BR',
    'pt-BR': 'Plante foguetes e lance-os antes que o jardim murche.',
    en: 'Plant rockets and launch them before the garden wilts.',
    es: '',
  },
  tags: ['arcade', 'casual'],
  age_rating: 'L',
  orientation: 'landscape',
  platforms: ['desktop', 'mobile'],
  privacy_url: 'https://rocketgarden.example.net/privacy',
  terms_url: null,
  support_url: 'https://rocketgarden.example.net/support',
  controller_name: 'Estúdio Semente Ltda.',
  controller_country: 'BR',
  privacy_contact: 'privacidade@rocketgarden.example.net',
  icon_url: `${MEDIA}/9c1e.avif`,
  tile_url: `${MEDIA}/4b7d.webp`,
  cover_url: `${MEDIA}/e2a0.avif`,
  screenshots: [`${MEDIA}/71f3.avif`, `${MEDIA}/a5c8.avif`],
  submitted_at: null,
  reviewed_at: null,
  review: null,
  updated_at: '2026-11-21T16:45:10.000Z',
};

export const approvedListing = {
  ...listing,
  number: 2,
  status: 'approved',
  submitted_at: '2026-11-17T12:00:00.000Z',
  reviewed_at: '2026-11-17T18:30:00.000Z',
  review: { decision: 'approve', reasons: [], note: null },
  updated_at: '2026-11-17T18:30:00.000Z',
};

/** The App Arcade record (`app`), as arcadeRecord() builds it. */
export const appRecord = {
  slug: 'rocket-garden',
  status: 'listed',
  listing: { approved: approvedListing, pending: null, draft: listing, rejected: null },
  releases: [release],
  data_events: { pending: 1, held: 0, failed: 0, oldest_pending_at: '2026-11-21T16:50:00.000Z' },
  events: [
    { kind: 'release_approved', data: { number: 2, reasons: [] }, at: '2026-11-19T09:12:30.000Z' },
    { kind: 'enabled', data: { slug: 'rocket-garden' }, at: '2026-11-15T08:00:00.000Z' },
  ],
  notice: null,
  created_at: '2026-11-15T08:00:00.000Z',
};

export const eligibility = {
  allowlisted: false,
  two_factor: true,
  mfa_session: true,
  email_verified: true,
  account_age_days: 212,
  adult: true,
  terms: { current: '2026-11', accepted: '2026-11' },
  banned: false,
  open_publishing: true,
  blocked: false,
  arcade_apps: { used: 1, limit: 3 },
  eligible: true,
};

export const override = {
  url: 'http://localhost:5173/',
  origin: 'http://localhost:5173',
  host: 'localhost:5173',
  loopback: true,
  release_id: RELEASE_ID,
  release_number: 2,
  set_at: '2026-11-21T17:00:00.000Z',
  expires_at: '2026-11-22T17:00:00.000Z',
  expired: false,
  ready: true,
  blocked_reason: null,
  changes_left: 19,
};

export const grant = {
  app_id: APP_ID,
  slug: 'rocket-garden',
  name: 'Rocket Garden',
  icon_url: `${MEDIA}/9c1e.avif`,
  scopes: ['identify'],
  nickname: 'Pilota Zoë',
  processed_abroad: false,
  granted_at: '2026-11-21T19:03:27.000Z',
  revoked_at: null,
};

/** A play as a launch answers it; `identity` is an ES256 JWT (15 minutes) or null. */
export const launch = {
  instance_id: 'c9be1baf-07a9-4f61-bff1-421ec8df1e84',
  kind: 'live',
  mode: 'live',
  url: 'https://rocketgarden.example.net/play/',
  release_number: 2,
  identity:
    'eyJhbGciOiJFUzI1NiIsImtpZCI6ImhUM2tQOXdReDJaYkxtMHYifQ.eyJpc3MiOiJodHRwczovL2pvZ2F0aW5hLmV4YW1wbGUiLCJhdWQiOiI1ZjFjMmE5ZS04ZDNiLTRjNzEtOWEwZS0yYjZmNGQ4YzFlMzciLCJzdWIiOiIyZTRmOGE2MS03YzNkLTRiOTUtYTBlMi05ZDFjNmY1YjNhODciLCJuaWNrbmFtZSI6IlBpbG90YSBab8OrIiwic2NvcGUiOiJpZGVudGlmeSIsImlpZCI6ImM5YmUxYmFmLTA3YTktNGY2MS1iZmYxLTQyMWVjOGRmMWU4NCIsImlhdCI6MTc5NTM3NDIwNywiZXhwIjoxNzk1Mzc1MTA3fQ.XUUZc1QvttOFtK4XnuxHITX9ZNMVvuuM6IUMS-Ed1rH0Jh9bfub-c7uCIjHrQ06moQoT6VZGT1aDTsCGlc6fKQ',
};

// Arcade's stored rows as the code reads them, and the constants more than one part of Arcade holds them
// to. Types and numbers only: every other Arcade file may import this one, and it imports nothing.

/** A game: the `arcade_apps` row of an app. */
export interface ArcadeApp {
  app_id: string;
  account_id: string;
  slug: string;
  status: 'draft' | 'listed' | 'hidden' | 'suspended' | 'removed';
  terms_version: string;
  live_release_id: string | null;
  previous_live_release_id: string | null;
  notice_kind: 'suspended' | 'flagged' | 'hidden' | null;
  notice_reason: string | null;
  notice_at: Date | null;
  approved_at: Date | null;
  created_at: Date;
  updated_at: Date;
  removed_at: Date | null;
}

/** A release body after the release rules: hosts in ASCII, `entry_origin` derived. */
export interface ReleaseInput {
  entry_url: string;
  entry_origin: string;
  capabilities: string[];
  scopes: string[];
  orientation: string;
  platforms: string[];
  third_parties: Array<{ origin: string; purpose: string }>;
  data_events_url: string | null;
  notes: string;
}

/** A stored release: the checked input and what the moves add to it. */
export interface ReleaseRow extends ReleaseInput {
  id: string;
  app_id: string;
  number: number;
  status: string;
  submitted_at: Date | null;
  reviewed_at: Date | null;
  review: { decision: string; reasons: string[]; note: string | null } | null;
  approved_at: Date | null;
  approval_sha256: string | null;
  approval_provider: string | null;
  last_check_id: string | null;
  went_live_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CheckRow {
  id: string;
  release_id: string;
  cause: string;
  result: Record<string, unknown>;
  passed: boolean;
  created_at: Date;
}

export interface ListingRow {
  id: string;
  app_id: string;
  number: number;
  status: 'draft' | 'submitted' | 'approved' | 'rejected' | 'superseded';
  fields: Record<string, unknown> | null;
  media: Record<string, string>;
  submitted_at: Date | null;
  reviewed_at: Date | null;
  review: { decision: string; reasons: string[]; note: string | null } | null;
  created_at: Date;
  updated_at: Date;
}

/** Approval older than this cannot be made live (spec Limits). */
export const APPROVAL_MAX_AGE_MS = 90 * 24 * 3600 * 1000;

/** A saved development URL (spec: Development URL), one per game. */
export interface OverrideRow {
  app_id: string;
  url: string;
  origin: string;
  host: string;
  loopback: boolean;
  release_id: string;
  set_at: Date;
  expires_at: Date;
}

/** Spec Limits: removed game evidence is kept this long. */
export const REMOVED_EVIDENCE_DAYS = 180;

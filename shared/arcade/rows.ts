// Arcade's stored rows as the code reads them (plain objects of the models' columns, models.ts), and the
// constants more than one part of Arcade holds them to. Types and numbers only: every other Arcade file may
// import this one, and it imports nothing but the models' types.
import type { ModelObject } from 'objection';
import type { ArcadeCheck, ArcadeGame, ArcadeListing, ArcadeOverride, ArcadeRelease } from './models.js';

/** A game: the `arcade_apps` row of an app. */
export type ArcadeApp = ModelObject<ArcadeGame>;

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
export type ReleaseRow = ModelObject<ArcadeRelease>;

export type CheckRow = ModelObject<ArcadeCheck>;

export type ListingRow = ModelObject<ArcadeListing>;

/** Approval older than this cannot be made live (spec Limits). */
export const APPROVAL_MAX_AGE_MS = 90 * 24 * 3600 * 1000;

/** A saved development URL (spec: Development URL), one per game. */
export type OverrideRow = ModelObject<ArcadeOverride>;

/** Spec Limits: removed game evidence is kept this long. */
export const REMOVED_EVIDENCE_DAYS = 180;

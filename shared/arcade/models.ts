// Arcade's store side: a game (an app's `arcade_apps` row) with its releases and their URL checks, its
// store pages, its development URL and its claims on slugs and origins, its timeline; and the operators'
// settings, terms, allowlist and blocklists. The players' side is player-models.ts. The relations are the
// ones the code joins: a game's releases and store pages, a release's or a store page's game, a release's
// checks.
import type { RelationMappings } from 'objection';
import { BaseModel, belongsToOne, hasMany } from '../platform/db/base-model.js';

/** A review's decision as stored on a release or a store page. */
export interface StoredReview {
  decision: string;
  reasons: string[];
  note: string | null;
}

export class ArcadeGame extends BaseModel {
  static override tableName = 'arcade_apps';
  static override idColumn = 'app_id';
  static override touchesUpdatedAt = true;

  declare app_id: string;
  declare account_id: string;
  declare slug: string;
  declare status: 'draft' | 'listed' | 'hidden' | 'suspended' | 'removed';
  declare terms_version: string;
  declare live_release_id: string | null;
  declare previous_live_release_id: string | null;
  declare notice_kind: 'suspended' | 'flagged' | 'hidden' | null;
  declare notice_reason: string | null;
  declare notice_at: Date | null;
  declare approved_at: Date | null;
  /** When a report asks for the live release to be checked again. */
  declare report_recheck_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;
  declare removed_at: Date | null;
  /** The hosting provider the live release was approved on (a move elsewhere is checked again). */
  declare pinned_provider: string | null;
  declare recheck_due_at: Date | null;

  static override get relationMappings(): RelationMappings {
    return {
      releases: hasMany(ArcadeRelease, 'arcade_apps.app_id', 'arcade_releases.app_id'),
      listings: hasMany(ArcadeListing, 'arcade_apps.app_id', 'arcade_listings.app_id'),
    };
  }
}

export class ArcadeRelease extends BaseModel {
  static override tableName = 'arcade_releases';
  static override touchesUpdatedAt = true;
  static override jsonAttributes = ['third_parties', 'review'];

  declare id: string;
  declare app_id: string;
  declare number: number;
  declare status: string;
  declare entry_url: string;
  declare entry_origin: string;
  declare capabilities: string[];
  declare scopes: string[];
  declare orientation: string;
  declare platforms: string[];
  declare third_parties: Array<{ origin: string; purpose: string }>;
  declare data_events_url: string | null;
  declare notes: string;
  declare submitted_at: Date | null;
  declare reviewed_at: Date | null;
  declare review: StoredReview | null;
  declare reviewer_id: string | null;
  declare approved_at: Date | null;
  declare approval_sha256: string | null;
  declare approval_provider: string | null;
  declare last_check_id: string | null;
  declare went_live_at: Date | null;
  declare created_at: Date;
  declare updated_at: Date;

  static override get relationMappings(): RelationMappings {
    return {
      game: belongsToOne(ArcadeGame, 'arcade_releases.app_id', 'arcade_apps.app_id'),
      checks: hasMany(ArcadeCheck, 'arcade_releases.id', 'arcade_checks.release_id'),
    };
  }
}

export class ArcadeCheck extends BaseModel {
  static override tableName = 'arcade_checks';
  static override jsonAttributes = ['result'];

  declare id: string;
  declare app_id: string;
  declare release_id: string;
  declare cause: string;
  declare result: Record<string, unknown>;
  declare passed: boolean;
  declare created_at: Date;
}

export class ArcadeListing extends BaseModel {
  static override tableName = 'arcade_listings';
  static override touchesUpdatedAt = true;
  static override jsonAttributes = ['fields', 'media', 'review'];

  declare id: string;
  declare app_id: string;
  declare number: number;
  declare status: 'draft' | 'submitted' | 'approved' | 'rejected' | 'superseded';
  declare fields: Record<string, unknown> | null;
  declare media: Record<string, string>;
  declare submitted_at: Date | null;
  declare reviewed_at: Date | null;
  declare review: StoredReview | null;
  declare reviewer_id: string | null;
  declare created_at: Date;
  declare updated_at: Date;

  static override get relationMappings(): RelationMappings {
    return {
      game: belongsToOne(ArcadeGame, 'arcade_listings.app_id', 'arcade_apps.app_id'),
    };
  }
}

/** A saved development URL (spec: Development URL), one per game. */
export class ArcadeOverride extends BaseModel {
  static override tableName = 'arcade_overrides';
  static override idColumn = 'app_id';

  declare app_id: string;
  declare url: string;
  declare origin: string;
  declare host: string;
  declare loopback: boolean;
  declare release_id: string;
  declare set_at: Date;
  declare expires_at: Date;
}

/** A slug or an origin, held by one game forever (a removed game keeps its claims). */
export class ArcadeClaim extends BaseModel {
  static override tableName = 'arcade_claims';
  static override idColumn = ['kind', 'value'];

  declare kind: 'slug' | 'origin';
  declare value: string;
  declare app_id: string;
  declare claimed_at: Date;
}

/** A game's timeline entry (what happened to it, for its developer and for moderation). */
export class ArcadeEvent extends BaseModel {
  static override tableName = 'arcade_events';
  static override jsonAttributes = ['data'];

  declare id: string;
  declare app_id: string;
  declare kind: string;
  declare data: Record<string, unknown>;
  declare created_at: Date;
}

/** The operators' settings: one row. */
export class StoreSettings extends BaseModel {
  static override tableName = 'arcade_settings';

  declare id: boolean;
  declare open_publishing: boolean;
  declare app_limit: number;
  declare terms_version: string;
}

export class ArcadeTerms extends BaseModel {
  static override tableName = 'arcade_terms';
  static override idColumn = 'version';

  declare version: string;
  declare text: string;
  declare text_sha256: string;
  declare created_at: Date;
}

export class ArcadeTermsAcceptance extends BaseModel {
  static override tableName = 'arcade_terms_acceptances';

  declare id: string;
  declare account_id: string;
  declare version: string;
  declare text_sha256: string;
  declare accepted_at: Date;
}

/** An account allowed to publish while publishing is not open to everyone. */
export class ArcadeAllowed extends BaseModel {
  static override tableName = 'arcade_allowlist';
  static override idColumn = 'account_id';

  declare account_id: string;
  declare created_at: Date;
}

/** A network no entry URL may resolve into. */
export class BlockedNetwork extends BaseModel {
  static override tableName = 'arcade_blocked_networks';
  static override idColumn = 'network';

  declare network: string;
  declare created_at: Date;
}

/** A domain registrar whose domains no entry URL may use. */
export class BlockedRegistrar extends BaseModel {
  static override tableName = 'arcade_blocked_registrars';
  static override idColumn = 'name';

  declare name: string;
  declare created_at: Date;
}

import { BaseModel } from '../platform/db/base-model.js';

export type Role = 'member' | 'moderator' | 'admin';

/** Moderators and admins: they see suspended people in search and reach the moderation routes. */
export function isStaff(account: { role: Role } | null | undefined): boolean {
  return account?.role === 'moderator' || account?.role === 'admin';
}

export class Account extends BaseModel {
  static override tableName = 'accounts';
  static override touchesUpdatedAt = true;

  declare id: string;
  declare email: string;
  declare email_verified_at: Date | null;
  declare password_hash: string | null;
  declare username: string | null;
  declare display_name: string | null;
  declare role: Role;
  declare two_factor_secret: string | null;
  declare two_factor_enabled_at: Date | null;
  declare two_factor_pending_secret: string | null;
  declare totp_last_step: number | null;
  declare username_changed_at: Date | null;
  /** 'YYYY-MM-DD'. */
  declare birth_date: string | null;
  declare birth_date_confirmed_by: 'self_declared' | 'document' | 'moderator' | null;
  /** Whether the account's session reads of games and profiles are recorded (PATCH /profile). */
  declare record_history: boolean;
  declare created_at: Date;
  declare updated_at: Date;

  get twoFactorOn(): boolean {
    return this.two_factor_enabled_at !== null;
  }
}

// The spec's username rules as pure functions.
export const USERNAME_PATTERN = '^[a-z0-9][a-z0-9_]{1,22}[a-z0-9]$';
const USERNAME = new RegExp(USERNAME_PATTERN);
export const USERNAME_MAX_LENGTH = 24;

export const RENAME_WAIT_DAYS = 30;
export const ALIAS_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

/**
 * 3 to 24 of a-z, 0-9 and `_`, neither first nor last `_`. The length is looked at first, so a string of
 * any size is judged without reading it through (an availability question may be any string at all).
 */
export function isUsernameShape(name: string): boolean {
  return name.length <= USERNAME_MAX_LENGTH && USERNAME.test(name);
}

/** When an account renamed at `changedAt` may rename again (null: now). */
export function nextChangeAt(changedAt: Date | null): Date | null {
  return changedAt ? new Date(changedAt.getTime() + RENAME_WAIT_DAYS * DAY_MS) : null;
}

export function aliasExpiry(now = Date.now()): Date {
  return new Date(now + ALIAS_DAYS * DAY_MS);
}

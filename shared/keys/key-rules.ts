// Pure rules of keys: their state, and the order lists show them in.
import type { ApiKey } from './models.js';

export type KeyState = 'live' | 'revoked' | 'expired';

export function keyState(key: Pick<ApiKey, 'revoked_at' | 'expires_at'>, now = Date.now()): KeyState {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && key.expires_at.getTime() <= now) return 'expired';
  return 'live';
}

/** Live keys first, then newest first. */
export function byLiveThenNewest(a: ApiKey, b: ApiKey, now = Date.now()): number {
  const live = Number(keyState(b, now) === 'live') - Number(keyState(a, now) === 'live');
  return live !== 0 ? live : b.created_at.getTime() - a.created_at.getTime();
}

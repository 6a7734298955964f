// Apps and keys as the API shows them. Never the token, never its hash.
import { keyState } from './key-rules.js';
import type { ApiKey, App } from './models.js';
import type { AppStats } from './rows.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentKey(key: ApiKey, now = Date.now()) {
  return {
    id: key.id,
    app_id: key.app_id,
    name: key.name,
    last4: key.last4,
    created_at: key.created_at.toISOString(),
    expires_at: iso(key.expires_at),
    last_used_at: iso(key.last_used_at),
    revoked_at: iso(key.revoked_at),
    state: keyState(key, now),
  };
}

export function presentApp(app: App, stats: AppStats) {
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    icon_url: stats.icon_url,
    scopes: app.scopes,
    created_at: app.created_at.toISOString(),
    updated_at: app.updated_at.toISOString(),
    active_keys: stats.active_keys,
    last_used_at: iso(stats.last_used_at),
    arcade: stats.arcade ?? null,
    events: stats.events ?? null,
  };
}

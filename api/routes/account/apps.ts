// The account's apps and their keys (spec: Account routes; DECISIONS: API keys and allowances).
import { appStatsWithArcade } from '../../../shared/arcade/app-stats.js';
import { createApp, deleteApp, findOwnApp, listApps } from '../../../shared/keys/apps.js';
import { eventSummaries, updateAppAndEvents, type AppPatch } from '../../../shared/events/subscriptions.js';
import type { AppStats } from '../../../shared/keys/rows.js';
import type { Knex } from 'knex';
import type { MediaStorage } from '../../../shared/platform/storage/media-storage.js';
import { urlRuleSettings } from '../arcade/developer-game.js';
import { createKey, listAppKeys } from '../../../shared/keys/keys.js';
import { presentApp, presentKey } from '../../../shared/keys/presenters.js';
import { onePage } from '../../../shared/platform/paging/paging.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { APP_DOCS } from './apps-docs.js';
import { appCreateBody, appKeyCreateBody, appPatchBody } from './schemas.js';
import { idParams } from '../schemas.js';

/** What an app answer shows beside the app's row: keys and icon, its Arcade game, its events. */
async function answerStats(knex: Knex, media: MediaStorage, appIds: string[]): Promise<Map<string, AppStats>> {
  const [stats, events] = await Promise.all([appStatsWithArcade(knex, media, appIds), eventSummaries(knex, appIds)]);
  for (const [id, app] of stats) app.events = events.get(id) ?? null;
  return stats;
}

export function appRoutes(api: VersionedRoutes): void {
  const read = sessionOnly({ allowance: 'read' });
  const write = sessionOnly({ allowance: 'write' });

  api.get('/account/apps', read, APP_DOCS.list, async (ctx) => {
    const { knex } = ctx.services;
    const apps = await listApps(knex, sessionCaller(ctx).account.id);
    const stats = await answerStats(
      knex,
      ctx.services.media,
      apps.map((app) => app.id),
    );
    // Collections answer `page`; at most 10 apps, so always one page (DECISIONS, Fine print).
    ctx.body = { data: apps.map((app) => presentApp(app, stats.get(app.id)!)), page: onePage(apps.length) };
  });

  api.post('/account/apps', write, validate({ body: appCreateBody }), APP_DOCS.create, async (ctx) => {
    const body = ctx.state.input.body as { name: string; description?: string };
    const app = await createApp(ctx.services.knex, sessionCaller(ctx).account.id, body);
    ctx.status = 201;
    ctx.body = { data: presentApp(app, { active_keys: 0, last_used_at: null, icon_url: null }) };
  });

  api.get('/account/apps/:id', read, validate({ params: idParams }), APP_DOCS.get, async (ctx) => {
    const { knex } = ctx.services;
    const accountId = sessionCaller(ctx).account.id;
    const app = await findOwnApp(knex, accountId, ctx.state.input.params.id as string);
    const [stats, keys] = await Promise.all([
      answerStats(knex, ctx.services.media, [app.id]),
      listAppKeys(knex, accountId, app.id),
    ]);
    ctx.body = { data: { ...presentApp(app, stats.get(app.id)!), keys: keys.map((key) => presentKey(key)) } };
  });

  api.patch(
    '/account/apps/:id',
    write,
    validate({ params: idParams, body: appPatchBody }),
    APP_DOCS.update,
    async (ctx) => {
      const { knex } = ctx.services;
      const app = await updateAppAndEvents(
        knex,
        sessionCaller(ctx).account.id,
        ctx.state.input.params.id as string,
        ctx.state.input.body as AppPatch,
        urlRuleSettings(),
      );
      const stats = await answerStats(knex, ctx.services.media, [app.id]);
      ctx.body = { data: presentApp(app, stats.get(app.id)!) };
    },
  );

  api.delete('/account/apps/:id', write, validate({ params: idParams }), APP_DOCS.delete, async (ctx) => {
    const id = ctx.state.input.params.id as string;
    await deleteApp(ctx.services.knex, ctx.services.media, sessionCaller(ctx).account.id, id);
    ctx.body = { data: { id, deleted: true } };
  });

  api.get('/account/apps/:id/keys', read, validate({ params: idParams }), APP_DOCS.keys, async (ctx) => {
    const keys = await listAppKeys(
      ctx.services.knex,
      sessionCaller(ctx).account.id,
      ctx.state.input.params.id as string,
    );
    ctx.body = { data: keys.map((key) => presentKey(key)), page: onePage(keys.length) };
  });

  api.post(
    '/account/apps/:id/keys',
    write,
    validate({ params: idParams, body: appKeyCreateBody }),
    APP_DOCS.createKey,
    async (ctx) => {
      const { knex, keyPrefix } = ctx.services;
      const body = ctx.state.input.body as { name: string; expires_in_days?: number | null };
      const { key, token } = await createKey(
        knex,
        keyPrefix,
        sessionCaller(ctx).account.id,
        ctx.state.input.params.id as string,
        body,
      );
      ctx.status = 201;
      ctx.body = { data: { ...presentKey(key), token } };
    },
  );
}

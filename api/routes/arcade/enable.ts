// Arcade's first steps for a developer (spec arcade.md: Terms, GET and POST /account/apps/{id}/arcade):
// the eligibility object with the game's record, reading and accepting the developer terms, and enabling
// Arcade.
import { arcadeRecord } from '../../../shared/arcade/app-record.js';
import { eligibilityOf } from '../../../shared/arcade/eligibility.js';
import { acceptTerms, enableArcade, gameOf } from '../../../shared/arcade/games.js';
import { currentTermsText } from '../../../shared/arcade/settings.js';
import { checkSlug } from '../../../shared/arcade/slug-rules.js';
import { findOwnApp } from '../../../shared/keys/apps.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { ARCADE_DEVELOPER_DOCS } from './arcade-developer-docs.js';
import { idParams } from '../schemas.js';
import { arcadeInput } from './bodies.js';

export function arcadeEnableRoutes(api: VersionedRoutes): void {
  // Reading answers any session that does not owe its second factor, so two_factor and mfa_session can
  // be read as false (DECISIONS); every change needs a session that passed it.
  const read = sessionOnly({ allowance: 'read', mfa: true });
  // Enabling refuses a suspended account with `banned` in the spec's order, after the eligibility steps
  // before it (shared/arcade/eligibility.ts), not ahead of them.
  const enable = sessionOnly({ allowance: 'write', mfa: true, suspendedReason: 'banned', suspensionByRoute: true });

  api.get(
    '/account/apps/:id/arcade',
    read,
    validate({ params: idParams }),
    ARCADE_DEVELOPER_DOCS.eligibility,
    async (ctx) => {
      const { knex, arcade, media } = ctx.services;
      const { account, session } = sessionCaller(ctx);
      const app = await findOwnApp(knex, account.id, ctx.state.input.params.id as string);
      const [eligibility, game] = await Promise.all([
        eligibilityOf(knex, account, session, arcade.minAccountAgeDays),
        gameOf(knex, app.id),
      ]);
      ctx.body = { data: { eligibility, app: game ? await arcadeRecord(knex, game, (key) => media.url(key)) : null } };
    },
  );

  api.post(
    '/account/apps/:id/arcade',
    enable,
    arcadeInput('enable', idParams),
    ARCADE_DEVELOPER_DOCS.enable,
    async (ctx) => {
      const { knex, arcade, media } = ctx.services;
      const { account, session } = sessionCaller(ctx);
      const body = ctx.state.input.body;
      const game = await enableArcade(
        knex,
        account,
        session,
        ctx.state.input.params.id as string,
        { slug: typeof body.slug === 'string' ? body.slug : '', terms_version: String(body.terms_version ?? '') },
        arcade.minAccountAgeDays,
        checkSlug,
      );
      ctx.status = 201;
      ctx.body = { data: { app: await arcadeRecord(knex, game, (key) => media.url(key)) } };
    },
  );

  // The text the terms' acceptance records the hash of (DECISIONS: Fine print). Read as the eligibility
  // is, so a developer can read the terms before turning two-factor on.
  api.get('/account/arcade/terms', read, ARCADE_DEVELOPER_DOCS.termsText, async (ctx) => {
    ctx.body = { data: await currentTermsText(ctx.services.knex) };
  });

  api.post(
    '/account/arcade/terms',
    sessionOnly({ allowance: 'write', mfaVerified: true, suspendedReason: 'banned' }),
    arcadeInput('terms'),
    ARCADE_DEVELOPER_DOCS.terms,
    async (ctx) => {
      const body = ctx.state.input.body as { terms_version: string };
      ctx.body = { data: await acceptTerms(ctx.services.knex, sessionCaller(ctx).account, body.terms_version) };
    },
  );
}

// The sign-in service of the website (DECISIONS: Sign-in service): under /api/auth, plus the first
// password at /api/account/password. Integrations never use it: a key here is 403. State-changing calls
// must come from the site's own origin, so another site cannot sign a visitor in or out.
import type Router from '@koa/router';
import { presentSessionAccount, presentSessionSummary } from '../../../shared/auth/presenters.js';
import {
  confirmTwoFactor,
  disableTwoFactor,
  enableTwoFactor,
  passSecondFactor,
  renewRecoveryCodes,
} from '../../../shared/auth/second-factor.js';
import { endSession } from '../../../shared/auth/sessions.js';
import {
  requestMagicLink,
  setFirstPassword,
  signIn,
  signInWithMagicLink,
  signUp,
  verifyEmail,
} from '../../../shared/auth/sign-in.js';
import type { AppContext, AppState } from '../../context.js';
import { origin, ownOriginOnly, signedIn } from './site-session.js';
import { publicRoute, sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import { clearSessionCookie } from '../../session-cookie.js';
import { AUTH_DOCS } from './auth-docs.js';
import {
  codeBody,
  emailBody,
  emptyBody,
  enableBody,
  passwordBody,
  signInBody,
  signUpBody,
  tokenQuery,
} from './schemas.js';

export function authRoutes(router: Router<AppState>): void {
  const guard = ownOriginOnly();
  const auth = (ctx: AppContext) => ctx.services.auth;

  router.post('/api/auth/sign-up', guard, validate({ body: signUpBody }), AUTH_DOCS.signUp, async (ctx) => {
    const body = ctx.state.input.body as { email: string; password: string; username?: string };
    signedIn(ctx, await signUp(auth(ctx), body, origin(ctx)), 201);
  });

  router.post('/api/auth/sign-in', guard, validate({ body: signInBody }), AUTH_DOCS.signIn, async (ctx) => {
    const body = ctx.state.input.body as { email: string; password: string };
    signedIn(ctx, await signIn(auth(ctx), body, origin(ctx)));
  });

  router.post(
    '/api/auth/two-factor',
    guard,
    sessionOnly(),
    validate({ body: codeBody }),
    AUTH_DOCS.twoFactor,
    async (ctx) => {
      const session = await passSecondFactor(
        auth(ctx),
        sessionCaller(ctx),
        ctx.state.input.body.code as string,
        ctx.ip,
      );
      ctx.body = { data: { session: presentSessionSummary(session) } };
    },
  );

  router.post(
    '/api/auth/two-factor/enable',
    guard,
    sessionOnly(),
    validate({ body: enableBody }),
    AUTH_DOCS.enableTwoFactor,
    async (ctx) => {
      ctx.body = {
        data: await enableTwoFactor(
          auth(ctx),
          sessionCaller(ctx),
          ctx.state.input.body.password as string | undefined,
          ctx.ip,
        ),
      };
    },
  );

  router.post(
    '/api/auth/two-factor/confirm',
    guard,
    sessionOnly(),
    validate({ body: codeBody }),
    AUTH_DOCS.confirmTwoFactor,
    async (ctx) => {
      await confirmTwoFactor(auth(ctx), sessionCaller(ctx), ctx.state.input.body.code as string, ctx.ip);
      ctx.body = { data: { two_factor: true } };
    },
  );

  router.post(
    '/api/auth/two-factor/disable',
    guard,
    sessionOnly(),
    validate({ body: codeBody }),
    AUTH_DOCS.disableTwoFactor,
    async (ctx) => {
      await disableTwoFactor(auth(ctx), sessionCaller(ctx), ctx.state.input.body.code as string, ctx.ip);
      ctx.body = { data: { two_factor: false } };
    },
  );

  router.post(
    '/api/auth/recovery-codes',
    guard,
    sessionOnly(),
    validate({ body: emptyBody }),
    AUTH_DOCS.recoveryCodes,
    async (ctx) => {
      ctx.body = { data: { recovery_codes: await renewRecoveryCodes(auth(ctx), sessionCaller(ctx)) } };
    },
  );

  router.post('/api/auth/magic-link', guard, validate({ body: emailBody }), AUTH_DOCS.magicLink, async (ctx) => {
    await requestMagicLink(auth(ctx), ctx.state.input.body.email as string, ctx.ip);
    // The same answer whether or not the email has an account.
    ctx.body = { data: { sent: true } };
  });

  // Opened from an email: a top-level navigation, so no origin rule; the one-time token is the proof.
  router.get(
    '/api/auth/magic-link/verify',
    publicRoute(null),
    validate({ query: tokenQuery }),
    AUTH_DOCS.magicLinkVerify,
    async (ctx) => {
      signedIn(ctx, await signInWithMagicLink(auth(ctx), ctx.state.input.query.token as string, origin(ctx)));
    },
  );

  router.get(
    '/api/auth/verify-email',
    publicRoute(null),
    validate({ query: tokenQuery }),
    AUTH_DOCS.verifyEmail,
    async (ctx) => {
      const account = await verifyEmail(auth(ctx), ctx.state.input.query.token as string);
      ctx.body = { data: { email: account.email, email_verified: true } };
    },
  );

  router.get('/api/auth/session', sessionOnly(), AUTH_DOCS.session, async (ctx) => {
    const { account, session } = sessionCaller(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: { account: presentSessionAccount(account), session: presentSessionSummary(session) } };
  });

  router.post('/api/auth/sign-out', guard, sessionOnly(), AUTH_DOCS.signOut, async (ctx) => {
    await endSession(ctx.services.knex, sessionCaller(ctx).session.id);
    clearSessionCookie(ctx);
    ctx.body = { data: { signed_out: true } };
  });

  router.post(
    '/api/account/password',
    guard,
    sessionOnly(),
    validate({ body: passwordBody }),
    AUTH_DOCS.firstPassword,
    async (ctx) => {
      const { account, session } = sessionCaller(ctx);
      const updated = await setFirstPassword(auth(ctx), account, session, ctx.state.input.body.password as string);
      ctx.body = { data: { account: presentSessionAccount(updated) } };
    },
  );
}

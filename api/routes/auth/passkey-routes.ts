// Passkeys (DECISIONS: Passkeys) under the sign-in service: registering and managing them from a signed-in
// session of the site, and signing in with one. Like the rest of /api/auth, every call must come from the
// site's own origin, and keys are refused. Managing passkeys needs a session that owes no second factor: a
// password alone must not be able to add or remove a way in.
import type Router from '@koa/router';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { signInWithPasskey, signInOptions } from '../../../shared/auth/passkey-sign-in.js';
import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  renamePasskey,
} from '../../../shared/auth/passkeys.js';
import { presentPasskey } from '../../../shared/auth/presenters.js';
import type { AppContext, AppState } from '../../context.js';
import { sessionCaller, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import { idParams } from '../schemas.js';
import { PASSKEY_DOCS } from './passkey-docs.js';
import { emptyBody, passkeyNameBody, passkeyRegisterBody, passkeySignInBody } from './schemas.js';
import { origin, ownOriginOnly, signedIn } from './site-session.js';

export function passkeyRoutes(router: Router<AppState>): void {
  const guard = ownOriginOnly();
  const owner = sessionOnly({ mfa: true });
  const auth = (ctx: AppContext) => ctx.services.auth;

  router.post(
    '/api/auth/passkeys/register/options',
    guard,
    owner,
    validate({ body: emptyBody }),
    PASSKEY_DOCS.registerOptions,
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: await registrationOptions(auth(ctx), sessionCaller(ctx)) };
    },
  );

  router.post(
    '/api/auth/passkeys/register',
    guard,
    owner,
    validate({ body: passkeyRegisterBody }),
    PASSKEY_DOCS.register,
    async (ctx) => {
      const body = ctx.state.input.body as { response: RegistrationResponseJSON; name?: string };
      const passkey = await registerPasskey(auth(ctx), sessionCaller(ctx), body.response, body.name);
      ctx.status = 201;
      ctx.body = { data: presentPasskey(passkey) };
    },
  );

  router.get('/api/auth/passkeys', owner, PASSKEY_DOCS.list, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const passkeys = await listPasskeys(ctx.services.knex, sessionCaller(ctx).account.id);
    ctx.body = { data: passkeys.map(presentPasskey) };
  });

  router.patch(
    '/api/auth/passkeys/:id',
    guard,
    owner,
    validate({ params: idParams, body: passkeyNameBody }),
    PASSKEY_DOCS.rename,
    async (ctx) => {
      const { account } = sessionCaller(ctx);
      const { id } = ctx.state.input.params as { id: string };
      const passkey = await renamePasskey(ctx.services.knex, account.id, id, ctx.state.input.body.name as string);
      ctx.body = { data: presentPasskey(passkey) };
    },
  );

  router.delete(
    '/api/auth/passkeys/:id',
    guard,
    owner,
    validate({ params: idParams }),
    PASSKEY_DOCS.delete,
    async (ctx) => {
      await deletePasskey(auth(ctx), sessionCaller(ctx), (ctx.state.input.params as { id: string }).id);
      ctx.body = { data: { deleted: true } };
    },
  );

  router.post(
    '/api/auth/passkeys/sign-in/options',
    guard,
    validate({ body: emptyBody }),
    PASSKEY_DOCS.signInOptions,
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { data: await signInOptions(auth(ctx), ctx.ip || null) };
    },
  );

  router.post(
    '/api/auth/passkeys/sign-in',
    guard,
    validate({ body: passkeySignInBody }),
    PASSKEY_DOCS.signIn,
    async (ctx) => {
      const body = ctx.state.input.body as { response: AuthenticationResponseJSON };
      signedIn(ctx, await signInWithPasskey(auth(ctx), body.response, origin(ctx)));
    },
  );
}

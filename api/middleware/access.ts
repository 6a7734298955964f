// The access declaration of a route, one per route (Authentication rules 2 to 10):
//   scoped('profile.read', 'read')            a key needs the scope; a session needs none
//   scoped('catalog.read', 'catalog', { anonymous: true })   public, but a key still needs the scope
//   publicRoute('catalog')                    anyone; a key is still checked and charged
//   sessionOnly({ mfa: true, recent: true })  a key gets 403 forbidden
// A key is resolved and charged its allowance first, in one statement, so every answer to a live key
// carries the X-RateLimit-* headers, refusals included.
//
// Every declaration refuses a write under /api/v1 from a session that still owes its second factor (403
// `mfa_required`): a password alone may read, pass the second factor and sign out (the sign-in service,
// outside /api/v1), nothing more. Before, such a session could mint an API key that outlived it.
//
// Every declaration hands a caller it lets through to `withIdempotencyKey` (middleware/idempotency.ts), so
// every POST under /api/v1 takes an `Idempotency-Key`, scoped to that caller, without naming it.
import type { Middleware, ParameterizedContext } from 'koa';
import {
  demandsSecondFactor,
  owesSecondFactor,
  signedInRecently,
  verifiedWithTwoFactor,
} from '../../shared/auth/session-rules.js';
import { forbidden, insufficientScope, invalidKey, rateLimited, unauthorized } from '../../shared/platform/errors.js';
import { findKeyCaller, noteKeyUse } from '../../shared/keys/key-caller.js';
import type { Allowance, Scope } from '../../shared/keys/scopes.js';
import { accountSuspended } from '../../shared/moderation/suspension.js';
import type { AppState, Caller } from '../context.js';
import { withFacts, type AccessFacts } from '../openapi/route-facts.js';
import { withIdempotencyKey } from './idempotency.js';

type Ctx = ParameterizedContext<AppState>;

const ACCESS = Symbol('access declaration');

/**
 * Marks a middleware as a route's access declaration (VersionedRoutes refuses routes without one), with
 * what it demands for the reference.
 */
function declared(middleware: Middleware<AppState>, access: AccessFacts): Middleware<AppState> {
  return withFacts(Object.assign(middleware, { [ACCESS]: true }), { access });
}

export function isAccessDeclaration(middleware: unknown): boolean {
  return typeof middleware === 'function' && (middleware as unknown as Record<symbol, unknown>)[ACCESS] === true;
}

/** Resolves the request's key (when it has one) into the caller, charging `allowance` if given. */
export async function resolveKey(ctx: Ctx, allowance: Allowance | null): Promise<void> {
  const token = ctx.state.keyToken;
  if (!token || ctx.state.caller) return;
  const { knex, log, allowances } = ctx.services;
  const found = await findKeyCaller(knex, token, allowance);
  if (!found) throw invalidKey();
  ctx.state.caller = { account: found.account, key: found.key, session: null, suspended: found.suspended };
  noteKeyUse(knex, found.key).catch((error) => log.warn({ err: error }, 'could not record key use'));
  if (!allowance || !found.charge) return;
  const state = allowances.stateAfter(allowance, found.charge.points, found.charge.expire);
  ctx.set({
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
    'X-RateLimit-Resource': state.resource,
  });
  if (state.exceeded) {
    throw rateLimited(
      state.retryAfterSeconds,
      undefined,
      `The ${allowance} allowance of this key is used up for this hour.`,
    );
  }
}

function refuseOwedSecondFactor(ctx: Ctx): void {
  const caller = ctx.state.caller;
  if (!caller?.session || !demandsSecondFactor(ctx.method, ctx.path)) return;
  if (owesSecondFactor(caller.account, caller.session)) {
    throw forbidden('mfa_required', {}, 'Pass the second factor (POST /api/auth/two-factor) before changing anything.');
  }
}

/**
 * An account under an active Suspensão or Banimento permanente reads but does not write (docs/api-notes.md):
 * its keys get 403 `suspended` on every write route, and so do its sessions, except on DELETE
 * routes, so the person can still end sessions, revoke keys and take down or delete what is theirs.
 */
async function refuseSuspendedWrite(
  ctx: Ctx,
  allowance: Allowance | null | undefined,
  reason = 'suspended',
): Promise<void> {
  const caller = ctx.state.caller;
  if (allowance !== 'write' || !caller) return;
  if (caller.session && ctx.method === 'DELETE') return;
  if (caller.suspended ?? (await accountSuspended(ctx.services.knex, caller.account.id))) {
    throw forbidden(reason, {}, 'This account is suspended: it may read, but not change anything.');
  }
}

export interface ScopedOptions {
  /** Anonymous readers are let through (public routes); keys still need the scope. */
  anonymous?: boolean;
}

/** `scope` null: any live key will do (e.g. `GET /me`). */
export function scoped(scope: Scope | null, allowance: Allowance, options: ScopedOptions = {}): Middleware<AppState> {
  return declared(
    async (ctx, next) => {
      await resolveKey(ctx, allowance);
      const caller = ctx.state.caller;
      if (!caller) {
        if (!options.anonymous) throw unauthorized();
        return next();
      }
      if (caller.key && scope && !caller.key.scopes.includes(scope)) throw insufficientScope(scope);
      refuseOwedSecondFactor(ctx);
      await refuseSuspendedWrite(ctx, allowance);
      return withIdempotencyKey(ctx, next);
    },
    { kind: 'scoped', scope, allowance, anonymous: options.anonymous ?? false },
  );
}

/** A public route: anyone; a key must still be live, and is charged `allowance` when one is named. */
export function publicRoute(allowance: Allowance | null): Middleware<AppState> {
  if (allowance) return scoped(null, allowance, { anonymous: true });
  return declared(
    async (ctx, next) => {
      await resolveKey(ctx, null);
      refuseOwedSecondFactor(ctx);
      return withIdempotencyKey(ctx, next);
    },
    { kind: 'public', allowance: null },
  );
}

export interface SessionOnlyOptions {
  /** Charged when a key calls anyway (before its 403), so the key sees its allowance. */
  allowance?: Allowance;
  /** 403 `mfa_required` while the session owes its second factor. */
  mfa?: boolean;
  /** 403 `mfa_required` unless the session passed two-factor (Arcade's "verified with two-factor"). */
  mfaVerified?: boolean;
  /** 403 `reauthentication_required` unless signed in within the last 15 minutes. */
  recent?: boolean;
  /** The reason a suspended account's write gets (Arcade's routes say `banned`). */
  suspendedReason?: string;
  /**
   * The route's own rules refuse a suspended account, in their place among its other refusals (enabling
   * Arcade: `banned` comes after `terms_required` in the spec's order), so the declaration does not.
   */
  suspensionByRoute?: boolean;
}

export function sessionOnly(options: SessionOnlyOptions = {}): Middleware<AppState> {
  return declared(
    async (ctx, next) => {
      await resolveKey(ctx, options.allowance ?? null);
      const caller = ctx.state.caller;
      if (!caller) throw unauthorized();
      if (caller.key)
        throw forbidden(
          undefined,
          {},
          'This route is for the website’s signed-in session only; API keys cannot call it.',
        );
      const session = caller.session!;
      refuseOwedSecondFactor(ctx);
      if (options.mfa && owesSecondFactor(caller.account, session)) throw forbidden('mfa_required');
      if (options.mfaVerified && !verifiedWithTwoFactor(session)) throw forbidden('mfa_required');
      if (options.recent && !signedInRecently(session)) throw forbidden('reauthentication_required');
      if (!options.suspensionByRoute) await refuseSuspendedWrite(ctx, options.allowance, options.suspendedReason);
      return withIdempotencyKey(ctx, next);
    },
    {
      kind: 'session',
      allowance: options.allowance ?? null,
      mfa: options.mfa ?? false,
      mfaVerified: options.mfaVerified ?? false,
      recent: options.recent ?? false,
      suspendedReason: options.suspendedReason ?? 'suspended',
    },
  );
}

/** The caller of a route behind `sessionOnly`, with its session. */
export function sessionCaller(ctx: { state: AppState }): Caller & { session: NonNullable<Caller['session']> } {
  return ctx.state.caller as Caller & { session: NonNullable<Caller['session']> };
}

// The access declaration of a route, one per route (Authentication rules 3, 4, 5, 8, 9, 10):
//   scoped('profile.read', 'read')            a key needs the scope; a session needs none
//   scoped('catalog.read', 'catalog', { anonymous: true })   public, but a key still needs the scope
//   sessionOnly({ mfa: true, recent: true })  a key gets 403 forbidden
// A key is charged its allowance first, so every answer to a key carries the X-RateLimit-* headers.
import type { Context, Middleware } from 'koa';
import { owesSecondFactor, signedInRecently, verifiedWithTwoFactor } from '../../shared/auth/session-rules.js';
import { forbidden, insufficientScope, rateLimited, unauthorized } from '../../shared/errors.js';
import type { Allowance, Scope } from '../../shared/keys/scopes.js';
import type { AppState, Caller } from '../context.js';

async function chargeKey(ctx: Context, keyId: string, allowance: Allowance): Promise<void> {
  const state = await ctx.services.allowances.charge(keyId, allowance);
  ctx.set({
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
    'X-RateLimit-Resource': state.resource,
  });
  if (state.exceeded) throw rateLimited(state.retryAfterSeconds, undefined, `The ${allowance} allowance of this key is used up for this hour.`);
}

export interface ScopedOptions {
  /** Anonymous readers are let through (public routes); keys still need the scope. */
  anonymous?: boolean;
}

/** `scope` null: any live key will do (e.g. `GET /me`). */
export function scoped(scope: Scope | null, allowance: Allowance, options: ScopedOptions = {}): Middleware<AppState> {
  return async (ctx, next) => {
    const caller = ctx.state.caller;
    if (!caller) {
      if (!options.anonymous) throw unauthorized();
      return next();
    }
    if (caller.key) {
      await chargeKey(ctx as unknown as Context, caller.key.id, allowance);
      if (scope && !caller.key.scopes.includes(scope)) throw insufficientScope(scope);
    }
    return next();
  };
}

/** A public route: anyone, and a key is charged its allowance. */
export function publicRoute(allowance: Allowance): Middleware<AppState> {
  return scoped(null, allowance, { anonymous: true });
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
}

export function sessionOnly(options: SessionOnlyOptions = {}): Middleware<AppState> {
  return async (ctx, next) => {
    const caller = ctx.state.caller;
    if (!caller) throw unauthorized();
    if (caller.key) {
      if (options.allowance) await chargeKey(ctx as unknown as Context, caller.key.id, options.allowance);
      throw forbidden(undefined, {}, 'This route is for the website’s signed-in session only; API keys cannot call it.');
    }
    const session = caller.session!;
    if (options.mfa && owesSecondFactor(caller.account, session)) throw forbidden('mfa_required');
    if (options.mfaVerified && !verifiedWithTwoFactor(session)) throw forbidden('mfa_required');
    if (options.recent && !signedInRecently(session)) throw forbidden('reauthentication_required');
    return next();
  };
}

/** The caller of a route behind `sessionOnly`, with its session. */
export function sessionCaller(ctx: { state: AppState }): Caller & { session: NonNullable<Caller['session']> } {
  return ctx.state.caller as Caller & { session: NonNullable<Caller['session']> };
}

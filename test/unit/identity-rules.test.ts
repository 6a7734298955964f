import { expect } from 'chai';
import {
  fromOwnOrigin,
  owesSecondFactor,
  sessionExpired,
  signedInRecently,
  verifiedWithTwoFactor,
} from '../../shared/auth/session-rules.js';
import {
  currentTotp,
  hashRecoveryCode,
  isRecoveryCodeShape,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
} from '../../shared/auth/totp.js';
import { seal, unseal } from '../../shared/platform/crypto/sealed-box.js';
import { Allowances } from '../../shared/keys/allowances.js';
import { byLiveThenNewest, keyState } from '../../shared/keys/key-rules.js';
import { isKeyTokenShape, newKeyToken } from '../../shared/keys/key-token.js';
import type { ApiKey } from '../../shared/keys/models.js';

const MINUTE = 60 * 1000;
const now = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('session rules', () => {
  it('counts the cookie only from the site origin', () => {
    const site = 'https://jogatina.example';
    expect(fromOwnOrigin({ origin: site }, site)).to.equal(true);
    expect(fromOwnOrigin({ origin: 'https://jogatina.example.evil.test' }, site)).to.equal(false);
    expect(fromOwnOrigin({ origin: 'null' }, site)).to.equal(false);
    expect(fromOwnOrigin({ 'sec-fetch-site': 'same-origin' }, site)).to.equal(true);
    expect(fromOwnOrigin({ 'sec-fetch-site': 'same-site' }, site)).to.equal(false);
    expect(
      fromOwnOrigin({ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, site),
      'Origin wins',
    ).to.equal(false);
    expect(fromOwnOrigin({}, site)).to.equal(false);
  });

  it('owes a second factor only with two-factor on and not passed', () => {
    const on = { two_factor_enabled_at: new Date() };
    const off = { two_factor_enabled_at: null };
    expect(owesSecondFactor(on, { second_factor: 'pending' })).to.equal(true);
    expect(owesSecondFactor(on, { second_factor: 'passed' })).to.equal(false);
    expect(owesSecondFactor(off, { second_factor: 'none' })).to.equal(false);
    expect(verifiedWithTwoFactor({ second_factor: 'passed' })).to.equal(true);
    expect(verifiedWithTwoFactor({ second_factor: 'none' })).to.equal(false);
  });

  it('draws the 15-minute and 30-day lines', () => {
    expect(signedInRecently({ signed_in_at: new Date(now - 15 * MINUTE) }, now)).to.equal(true);
    expect(signedInRecently({ signed_in_at: new Date(now - 15 * MINUTE - 1) }, now)).to.equal(false);
    expect(sessionExpired({ last_seen_at: new Date(now - 30 * 24 * 60 * MINUTE) }, now)).to.equal(false);
    expect(sessionExpired({ last_seen_at: new Date(now - 30 * 24 * 60 * MINUTE - 1) }, now)).to.equal(true);
  });
});

describe('key tokens and states', () => {
  it('makes tokens of the prefix and 32 lowercase hex, and recognises only that shape', () => {
    const token = newKeyToken('jgt_live_');
    expect(token).to.match(/^jgt_live_[0-9a-f]{32}$/);
    expect(isKeyTokenShape('jgt_live_', token)).to.equal(true);
    for (const bad of [
      token.toUpperCase(),
      `${token}0`,
      token.slice(0, -1),
      `jgt_test_${'a'.repeat(32)}`,
      `jgt_live_${'g'.repeat(32)}`,
      '',
    ]) {
      expect(isKeyTokenShape('jgt_live_', bad), bad).to.equal(false);
    }
  });

  it('tells live, revoked and expired apart, and lists live first then newest', () => {
    const key = (created: number, revoked: Date | null, expires: Date | null) =>
      ({ created_at: new Date(created), revoked_at: revoked, expires_at: expires }) as ApiKey;
    const live = key(now - 3000, null, null);
    const newerRevoked = key(now - 1000, new Date(now), null);
    const expired = key(now - 2000, null, new Date(now - 1));
    const liveUntilLater = key(now - 4000, null, new Date(now + 1000));
    expect([
      keyState(live, now),
      keyState(newerRevoked, now),
      keyState(expired, now),
      keyState(liveUntilLater, now),
    ]).to.deep.equal(['live', 'revoked', 'expired', 'live']);
    const sorted = [newerRevoked, liveUntilLater, expired, live].sort((a, b) => byLiveThenNewest(a, b, now));
    expect(sorted).to.deep.equal([live, liveUntilLater, newerRevoked, expired]);
  });
});

describe('sealed boxes', () => {
  const secret = 's'.repeat(40);
  it('open with the same secret and purpose only', () => {
    const box = seal(secret, 'totp-secret', 'JBSWY3DPEHPK3PXP');
    expect(box).to.match(/^v1\./).and.not.include('JBSWY3DPEHPK3PXP');
    expect(unseal(secret, 'totp-secret', box)).to.equal('JBSWY3DPEHPK3PXP');
    expect(() => unseal('o'.repeat(40), 'totp-secret', box)).to.throw();
    expect(() => unseal(secret, 'signing-key', box)).to.throw();
    // A bit of the ciphertext flipped (changing base64url text could touch only the last character's
    // padding bits, which decode to the same bytes: this test failed 1 run in 64 or so that way).
    const [version, iv, tag, body] = box.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    const tampered = [version, iv, tag, flipped.toString('base64url')].join('.');
    expect(() => unseal(secret, 'totp-secret', tampered)).to.throw();
  });
});

describe('authenticator and recovery codes', () => {
  it('match the current step and one step either side, not further', () => {
    const secret = newTotpSecret();
    const step = Math.floor(now / 30000);
    expect(matchTotp(secret, currentTotp(secret, now), now)).to.equal(step);
    expect(matchTotp(secret, currentTotp(secret, now - 30000), now)).to.equal(step - 1);
    expect(matchTotp(secret, currentTotp(secret, now + 30000), now)).to.equal(step + 1);
    expect(matchTotp(secret, currentTotp(secret, now - 90000), now)).to.equal(null);
    for (const bad of ['', '12345', '1234567', 'abcdef']) expect(matchTotp(secret, bad, now)).to.equal(null);
  });

  it('makes ten distinct recovery codes that hash the same however they are typed', () => {
    const codes = newRecoveryCodes();
    expect(codes).to.have.length(10);
    expect(new Set(codes).size).to.equal(10);
    for (const code of codes) expect(code).to.match(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const [code] = codes;
    expect(isRecoveryCodeShape(code.toUpperCase())).to.equal(true);
    expect(hashRecoveryCode('k'.repeat(40), code.toUpperCase().replace(/-/g, ''))).to.equal(
      hashRecoveryCode('k'.repeat(40), code),
    );
    expect(hashRecoveryCode('k'.repeat(40), code)).to.not.equal(hashRecoveryCode('j'.repeat(40), code));
  });
});

describe('allowance state', () => {
  it('reports remaining, reset and exceeded from the charged count', () => {
    const allowances = new Allowances({ read: 5000, write: 1000, catalog: 10000 });
    const expire = now + 1800 * 1000;
    expect(allowances.stateAfter('read', 1, expire, now)).to.deep.equal({
      resource: 'read',
      limit: 5000,
      remaining: 4999,
      reset: Math.ceil(expire / 1000),
      exceeded: false,
      retryAfterSeconds: 1800,
    });
    expect(allowances.stateAfter('write', 1000, expire, now)).to.include({ remaining: 0, exceeded: false });
    expect(allowances.stateAfter('write', 1001, expire, now)).to.include({ remaining: 0, exceeded: true });
  });
});

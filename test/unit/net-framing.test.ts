// Whether the site may frame a page, from X-Frame-Options and CSP frame-ancestors.
import { expect } from 'chai';
import { frameAncestorLists, framingVerdict } from '../../shared/platform/net/framing-policy.js';

const PAGE = 'https://game.example.com/play/';
const SITE = 'https://jogatina.example';

function verdict(headers: Record<string, string>, site = SITE) {
  return framingVerdict(headers, PAGE, site);
}

describe('framingVerdict', () => {
  it('allows a page with neither header', () => {
    expect(verdict({})).to.deep.equal({ ok: true, signals: [] });
  });

  it('fails any X-Frame-Options, whatever its value', () => {
    for (const value of ['DENY', 'SAMEORIGIN', 'ALLOW-FROM https://jogatina.example']) {
      expect(verdict({ 'x-frame-options': value })).to.deep.equal({ ok: false, signals: ['x_frame_options'] });
    }
  });

  const ALLOWING = [
    'frame-ancestors *',
    'frame-ancestors https://jogatina.example',
    "frame-ancestors 'self' https://jogatina.example",
    'frame-ancestors https://*.example',
    'frame-ancestors https:',
    'frame-ancestors http:',
    'frame-ancestors jogatina.example',
    'frame-ancestors http://jogatina.example',
    'frame-ancestors https://jogatina.example:443',
    'frame-ancestors https://jogatina.example:*/some/path',
    'FRAME-ANCESTORS HTTPS://JOGATINA.EXAMPLE',
    "default-src 'self'; script-src 'unsafe-inline'",
    "frame-ancestors https://jogatina.example; frame-ancestors 'none'",
    "frame-ancestors 'none' https://jogatina.example",
  ];
  for (const policy of ALLOWING) {
    it(`allows the site under "${policy}"`, () => {
      expect(verdict({ 'content-security-policy': policy }).ok).to.equal(true);
    });
  }

  const EXCLUDING = [
    "frame-ancestors 'none'",
    'frame-ancestors',
    "frame-ancestors 'self'",
    'frame-ancestors https://other.example',
    'frame-ancestors https://*.jogatina.example',
    'frame-ancestors https://jogatina.example:8443',
    'frame-ancestors wss:',
    "frame-ancestors 'unsafe-inline'",
    "default-src *, frame-ancestors 'none'",
    "frame-ancestors 'none'; frame-ancestors *",
  ];
  for (const policy of EXCLUDING) {
    it(`refuses the site under "${policy}"`, () => {
      expect(verdict({ 'content-security-policy': policy })).to.deep.equal({
        ok: false,
        signals: ['frame_ancestors_excludes_site'],
      });
    });
  }

  it("lets 'self' allow the site when the game is served from the site's own origin", () => {
    expect(framingVerdict({ 'content-security-policy': "frame-ancestors 'self'" }, `${SITE}/g/`, SITE).ok).to.equal(
      true,
    );
  });

  it('checks a local http site like any other origin', () => {
    const local = 'http://localhost:3000';
    expect(verdict({ 'content-security-policy': 'frame-ancestors http://localhost:3000' }, local).ok).to.equal(true);
    expect(verdict({ 'content-security-policy': 'frame-ancestors https:' }, local).ok).to.equal(false);
    expect(verdict({ 'content-security-policy': 'frame-ancestors localhost' }, local).ok).to.equal(false);
  });

  it('ignores report-only policies, which block nothing', () => {
    expect(verdict({ 'content-security-policy-report-only': "frame-ancestors 'none'" }).ok).to.equal(true);
  });

  it('reads the first frame-ancestors of each policy', () => {
    expect(
      frameAncestorLists("frame-ancestors a b; frame-ancestors c, img-src x; frame-ancestors 'none'"),
    ).to.deep.equal([['a', 'b'], ["'none'"]]);
  });
});

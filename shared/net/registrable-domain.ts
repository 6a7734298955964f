// The domain someone registered, from a host name, without the Public Suffix List (not a dependency):
// the last two labels, or three under the common second-level suffixes below. Known limits: suffixes
// not listed here (e.g. `kawasaki.jp`) give one label too few, and hosting suffixes the PSL lists as
// private (`github.io`, `netlify.app`, `pages.dev`) give the hosting company's domain, so a new site
// under them looks as old as the company's domain.
import { numericHostAddress } from './address-policy.js';

const SECOND_LEVEL = new Set(
  [
    'co.uk org.uk me.uk ltd.uk plc.uk net.uk ac.uk gov.uk sch.uk',
    'com.br net.br org.br art.br blog.br app.br dev.br edu.br gov.br eco.br tec.br',
    'com.au net.au org.au edu.au gov.au id.au',
    'co.nz net.nz org.nz co.jp ne.jp or.jp ac.jp go.jp co.kr or.kr',
    'com.cn net.cn org.cn com.tw com.hk com.sg com.my co.id com.ph co.th co.in net.in org.in',
    'co.za com.ng co.ke co.il com.tr com.pt com.es',
    'com.mx gob.mx com.ar gob.ar com.co com.pe com.uy com.py com.bo com.ec com.ve',
  ]
    .join(' ')
    .split(' '),
);

/** The registrable domain of a host, or null for an IP address or a single label. */
export function registrableDomain(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (numericHostAddress(name) !== null) return null;
  const labels = name.split('.').filter(Boolean);
  if (labels.length < 2) return null;
  const lastTwo = labels.slice(-2).join('.');
  if (SECOND_LEVEL.has(lastTwo)) return labels.length >= 3 ? labels.slice(-3).join('.') : null;
  return lastTwo;
}

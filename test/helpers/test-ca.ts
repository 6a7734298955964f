// Certificates for fake developer hosts. `trusted` is a self-signed certificate that is its own CA
// (selfsigned 2 cannot sign with a separate CA): its PEM is the file OUTBOUND_TEST_CA_FILE points at, so
// the outbound guard verifies it like any public certificate. `untrusted` has the same names but is known
// to nobody, for tests that expect tls_failed. Generated once per test run (RSA 2048, about 0.2 s).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Fake hosts live under this name; the certificates cover `*.jogatina.test`. */
export const TEST_DOMAIN = 'jogatina.test';

export interface KeyAndCertificate {
  key: string;
  cert: string;
}

export interface TestCertificates {
  caFile: string;
  trusted: KeyAndCertificate;
  untrusted: KeyAndCertificate;
}

interface Generated {
  private: string;
  cert: string;
}

// The package's own type file declares no exports, so it is loaded untyped with the one call typed here.
const selfsigned = createRequire(import.meta.url)('selfsigned') as {
  generate(attrs: object[], options: object, done: (error: Error | undefined, result: Generated) => void): void;
};

let pending: Promise<TestCertificates> | null = null;

export function testCertificates(): Promise<TestCertificates> {
  pending ??= (async () => {
    const [trusted, untrusted] = await Promise.all([generate('Jogatina test CA'), generate('Nobody trusts me')]);
    const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'jogatina-test-ca-')), 'ca.pem');
    writeFileSync(caFile, trusted.cert);
    return { caFile, trusted, untrusted };
  })();
  return pending;
}

function generate(commonName: string): Promise<KeyAndCertificate> {
  const extensions = [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: TEST_DOMAIN },
        { type: 2, value: `*.${TEST_DOMAIN}` },
      ],
    },
  ];
  return new Promise((resolve, reject) => {
    selfsigned.generate(
      [{ name: 'commonName', value: commonName }],
      { keySize: 2048, days: 30, algorithm: 'sha256', extensions },
      (error, result) => (error ? reject(error) : resolve({ key: result.private, cert: result.cert })),
    );
  });
}

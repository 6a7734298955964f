import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../shared/platform/config.js';

const SECRET = 's'.repeat(40);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ SECRET, ...env }, tmpdir());
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}

describe('config', () => {
  it('has working local defaults', () => {
    const config = loadConfig({ SECRET }, '/srv/app');
    expect(config).to.include({
      env: 'development',
      port: 3000,
      trustProxy: 0,
      databaseUrl: null,
      publicUrl: 'http://localhost:3000',
      dataDir: '/srv/app/.data',
      mediaDir: '/srv/app/.data/media',
      mailDir: '/srv/app/.data/mail',
      smtpUrl: null,
      keyPrefix: 'jgt_live_',
      logLevel: 'info',
      secret: SECRET,
    });
    expect(Object.isFrozen(config)).to.equal(true);
    // Today's behaviour: internationalized host names pass when the IDN rules do.
    expect(config.arcade.idnHosts).to.equal('accept');
  });

  it('reads ARCADE_IDN_HOSTS, the switch that refuses internationalized host names', () => {
    expect(loadConfig({ SECRET, ARCADE_IDN_HOSTS: 'refuse' }, '/srv/app').arcade.idnHosts).to.equal('refuse');
    expect(loadConfig({ SECRET, ARCADE_IDN_HOSTS: 'accept' }, '/srv/app').arcade.idnHosts).to.equal('accept');
  });

  it('reads every variable it documents', () => {
    const config = loadConfig(
      {
        SECRET,
        NODE_ENV: 'production',
        PORT: '8080',
        TRUST_PROXY: '2',
        DATABASE_URL: 'postgres://u:p@db:5432/j',
        PUBLIC_URL: 'https://jogatina.example/',
        MEDIA_DIR: '/var/media',
        SMTP_URL: 'smtps://u:p@mail.example:465',
        KEY_PREFIX: 'jgt_test_',
        LOG_LEVEL: 'warn',
      },
      '/srv/app',
    );
    expect(config).to.include({
      env: 'production',
      port: 8080,
      trustProxy: 2,
      databaseUrl: 'postgres://u:p@db:5432/j',
      publicUrl: 'https://jogatina.example',
      mediaDir: '/var/media',
      smtpUrl: 'smtps://u:p@mail.example:465',
      keyPrefix: 'jgt_test_',
      logLevel: 'warn',
    });
  });

  const refusals: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /^PORT must be an integer from 0 to 65535, got "abc"$/],
    [{ PORT: '70000' }, /^PORT must be an integer/],
    [{ PORT: '-1' }, /^PORT must be an integer/],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be an integer from 0 to 10, got "yes"$/],
    [{ TRUST_PROXY: '11' }, /^TRUST_PROXY must be an integer/],
    [{ NODE_ENV: 'staging' }, /^NODE_ENV must be one of development, test, production/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must use postgres: or postgresql:/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL/],
    [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL must use http: or https:/],
    [{ PUBLIC_URL: 'https://x.example/app' }, /^PUBLIC_URL must be an origin without a path/],
    [{ SMTP_URL: 'http://mail' }, /^SMTP_URL must use smtp: or smtps:/],
    [{ KEY_PREFIX: 'BAD' }, /^KEY_PREFIX must be lowercase/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ ARCADE_IDN_HOSTS: 'no' }, /^ARCADE_IDN_HOSTS must be one of accept, refuse, got "no"$/],
    [{ SECRET: 'short' }, /^SECRET must be at least 32 characters$/],
  ];
  for (const [env, expected] of refusals) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      const problems = problemsOf(env);
      expect(problems).to.have.length(1);
      expect(problems[0]).to.match(expected);
    });
  }

  it('names every bad variable in one line', () => {
    try {
      loadConfig({ SECRET, PORT: 'x', LOG_LEVEL: 'y' }, tmpdir());
      expect.fail('should refuse');
    } catch (error) {
      expect((error as Error).message).to.equal(
        'Configuration error: PORT must be an integer from 0 to 65535, got "x"; LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "y"',
      );
      expect((error as Error).message).not.to.include('\n');
    }
  });

  it('never prints a database password', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'postgres://user:hunter2@' });
    expect(problem ?? '').not.to.include('hunter2');
  });

  it('requires SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, tmpdir())).to.throw(
      ConfigError,
      'SECRET is required when NODE_ENV is production',
    );
  });

  it('generates a local secret once, private to the owner, and reuses it', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'jogatina-config-'));
    const first = loadConfig({}, cwd);
    const second = loadConfig({}, cwd);
    expect(first.secret).to.match(/^[0-9a-f]{64}$/);
    expect(second.secret).to.equal(first.secret);
    const file = path.join(cwd, '.data', 'secret');
    expect(readFileSync(file, 'utf8').trim()).to.equal(first.secret);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });
});

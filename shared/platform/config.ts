// Configuration is read from the environment once, validated as a whole, and frozen. A bad value stops
// the process at start with one line naming every variable that is wrong, instead of failing later in a
// request. Every variable here is documented in docs/operations.md with its default.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readImages, type ImageConfig } from './config-images.js';
import { dataFolderProblem } from './start-failure.js';

export type Environment = 'development' | 'test' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  env: Environment;
  host: string;
  port: number;
  /**
   * Whether PORT, EMBEDDED_PG_PORT and PUBLIC_URL were set: `npm start` moves a port it chose itself off
   * another program's, but never one the operator chose (scripts/start.ts).
   */
  chosen: { port: boolean; embeddedPgPort: boolean; publicUrl: boolean };
  /**
   * Proxy hops in front of the web process whose `X-Forwarded-*` headers are believed: 0 (default) uses
   * the socket's address and ignores forwarded headers, since any client can send them.
   */
  trustProxy: number;
  /** Unset: an embedded PostgreSQL under `dataDir` (one-machine mode and tests). */
  databaseUrl: string | null;
  databasePoolMax: number;
  /** How long the web process waits on the database before it answers 503 (workers and tools wait on). */
  databaseTimeouts: DatabaseTimeouts;
  embeddedPgPort: number;
  dataDir: string;
  /** The site's own origin, e.g. `http://localhost:3000`; session cookies count only from it. */
  publicUrl: string;
  publicOrigin: string;
  mediaDir: string;
  mailDir: string;
  smtpUrl: string | null;
  mailFrom: string;
  keyPrefix: string;
  secret: string;
  logLevel: LogLevel;
  shutdownTimeoutMs: number;
  /** Requests per API key per hour for each allowance (DECISIONS: 5000, 1000, 10000). */
  allowancePerHour: { read: number; write: number; catalog: number };
  media: MediaConfig;
  images: ImageConfig;
  arcade: ArcadeConfig;
  outbound: OutboundConfig;
  /** `METRICS_TOKEN`: the bearer token `GET /metrics` asks for; null: metrics are not served. */
  metricsToken: string | null;
  /**
   * `WORKER_METRICS_PORT`: where each worker process serves its own `GET /metrics` (0: a free port, logged
   * at start); null: not served. Behind METRICS_TOKEN like the web's.
   */
  workerMetricsPort: number | null;
  /**
   * `TEST_PAUSE_AT_COMMIT`, tests only (refused in production): `before` or `after`, a request with an
   * Idempotency-Key stops just before its commit, or between its commit and its answer, so a test can
   * kill the process there. null (unset): never.
   */
  testPauseAtCommit: 'before' | 'after' | null;
}

/**
 * The web process's limits on the database (docs/operations.md: Configuration), set per connection, so the release
 * step, workers and operator commands (migrations, VACUUM, catalog import) are never cut by them.
 */
export interface DatabaseTimeouts {
  /** `statement_timeout` of a request's statements (0: none); the process itself gives up 1 s after it. */
  statementMs: number;
  /** How long a request waits for a connection of the pool, opening a new one included. */
  acquireMs: number;
  /**
   * `idle_in_transaction_session_timeout` (0: none): a transaction left idle this long (its process hung)
   * is ended by the server, which frees its locks and the Idempotency-Key it held.
   */
  idleInTransactionMs: number;
}

export interface ArcadeConfig {
  /** DECISIONS: an uninvited account must be this many days old to enable Arcade (0 to try it locally). */
  minAccountAgeDays: number;
  /** Where domain registrations are looked up (RDAP); null: no lookup (the default under NODE_ENV=test). */
  rdapBaseUrl: string | null;
  /**
   * `ARCADE_IDN_HOSTS`: whether Arcade accepts internationalized host names (a label in Unicode or
   * punycode, `bücher.de` or `xn--bcher-kva.de`) in game URLs (entry, data events, third parties) and
   * development URLs. `accept` (default): they pass when the IDN rules do (`idn_invalid`, `idn_script`,
   * `idn_confusable`). `refuse`: each is 400 `url_denied` with detail `idn` (spec: "`idn` while such names
   * are not accepted"), judged when a release or development URL is saved, and for a saved development URL
   * on every read and launch.
   */
  idnHosts: IdnHostPolicy;
}

export const IDN_HOST_POLICIES = ['accept', 'refuse'] as const;
export type IdnHostPolicy = (typeof IDN_HOST_POLICIES)[number];

/**
 * The outbound guard's test door: names resolved to given loopback addresses and an extra trusted CA,
 * so a local https server can stand in for a developer's host. Refused in production.
 */
export interface OutboundConfig {
  /**
   * `OUTBOUND_TEST_HOSTS`: `name=address,...` (e.g. `dev.example.test=127.0.0.1`; `name=a|b` answers several
   * addresses, the guard connecting to the first); null when unset.
   */
  testHosts: Record<string, string> | null;
  /** `OUTBOUND_TEST_CA_FILE`: a PEM file trusted beside the system's authorities; null when unset. */
  testCaFile: string | null;
}

export interface MediaConfig {
  /** `local`: files under `mediaDir`; `s3`: an S3-compatible bucket that several servers share. */
  storage: 'local' | 's3';
  /** Where stored files are reachable: `PUBLIC_URL/media` by default (served by the web process). */
  publicBaseUrl: string;
  s3: {
    bucket: string;
    region: string;
    endpoint: string | null;
    forcePathStyle: boolean;
    accessKeyId: string | null;
    secretAccessKey: string | null;
  } | null;
}

export { SCREENING_MODELS, type ImageConfig } from './config-images.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration error: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const ENVIRONMENTS: Environment[] = ['development', 'test', 'production'];

/** Collects problems instead of throwing at the first, so one start shows every bad variable. */
class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
      return fallback;
    }
    return Number(value);
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!allowed.includes(value as T)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
      return fallback;
    }
    return value as T;
  }

  url(name: string, protocols: string[]): string | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      this.problems.push(`${name} must be a URL (${protocols.join(' or ')}), got "${redact(value)}"`);
      return null;
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
      return null;
    }
    return value;
  }

  fail(message: string): void {
    this.problems.push(message);
  }
}

/** Hides a password in a URL before it is printed. */
function redact(value: string): string {
  return value.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}

/**
 * Reads and validates the configuration. Pure except for SECRET: when it is unset outside production,
 * a random one is generated once into `DATA_DIR/secret` so that sessions and cursors survive restarts.
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const read = new Reader(env);
  const nodeEnv = read.oneOf('NODE_ENV', 'development', ENVIRONMENTS);
  const dataDir = path.resolve(cwd, read.string('DATA_DIR', '.data'));

  const publicUrl = read.url('PUBLIC_URL', ['http:', 'https:']) ?? 'http://localhost:3000';
  const publicParsed = new URL(publicUrl);
  if (publicParsed.pathname !== '/' || publicParsed.search || publicParsed.hash) {
    read.fail(`PUBLIC_URL must be an origin without a path, got "${publicUrl}"`);
  }

  const keyPrefix = read.string('KEY_PREFIX', 'jgt_live_');
  if (!/^[a-z][a-z0-9]{1,11}_(?:[a-z0-9]{1,11}_)?$/.test(keyPrefix)) {
    read.fail(`KEY_PREFIX must be lowercase letters and digits ending in "_" (like jgt_live_), got "${keyPrefix}"`);
  }

  const mailFrom = read.string('MAIL_FROM', 'Jogatina <no-reply@jogatina.localhost>');
  if (!/@[^@\s>]+>?$/.test(mailFrom)) read.fail(`MAIL_FROM must hold an email address, got "${mailFrom}"`);

  const config = {
    env: nodeEnv,
    host: read.string('HOST', '0.0.0.0'),
    port: read.integer('PORT', 3000, 0, 65535),
    chosen: {
      port: read.raw('PORT') !== undefined,
      embeddedPgPort: read.raw('EMBEDDED_PG_PORT') !== undefined,
      publicUrl: read.raw('PUBLIC_URL') !== undefined,
    },
    trustProxy: read.integer('TRUST_PROXY', 0, 0, 10),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolMax: read.integer('DATABASE_POOL_MAX', 10, 2, 200),
    databaseTimeouts: {
      statementMs: read.integer('DATABASE_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000),
      acquireMs: read.integer('DATABASE_ACQUIRE_TIMEOUT_MS', 5000, 100, 600_000),
      idleInTransactionMs: read.integer('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', 30000, 0, 3_600_000),
    },
    embeddedPgPort: read.integer('EMBEDDED_PG_PORT', 54329, 1024, 65535),
    dataDir,
    publicUrl: publicParsed.origin,
    publicOrigin: publicParsed.origin,
    mediaDir: path.resolve(cwd, read.string('MEDIA_DIR', path.join(dataDir, 'media'))),
    mailDir: path.join(dataDir, 'mail'),
    smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    keyPrefix,
    secret: '',
    logLevel: read.oneOf('LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info', LOG_LEVELS),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10000, 100, 120000),
    allowancePerHour: {
      read: read.integer('ALLOWANCE_READ_PER_HOUR', 5000, 1, 1_000_000_000),
      write: read.integer('ALLOWANCE_WRITE_PER_HOUR', 1000, 1, 1_000_000_000),
      catalog: read.integer('ALLOWANCE_CATALOG_PER_HOUR', 10000, 1, 1_000_000_000),
    },
    media: readMedia(read, publicParsed.origin),
    images: readImages(read),
    arcade: {
      minAccountAgeDays: read.integer('ARCADE_MIN_ACCOUNT_AGE_DAYS', 14, 0, 3650),
      // Tests reach only loopback: they look domains up in a fake RDAP server of their own, or not at all.
      rdapBaseUrl: read.url('ARCADE_RDAP_URL', ['https:']) ?? (nodeEnv === 'test' ? null : 'https://rdap.org/domain/'),
      idnHosts: read.oneOf('ARCADE_IDN_HOSTS', 'accept', IDN_HOST_POLICIES),
    },
    outbound: readOutbound(read, nodeEnv),
    metricsToken: read.raw('METRICS_TOKEN') ?? null,
    workerMetricsPort:
      read.raw('WORKER_METRICS_PORT') === undefined ? null : read.integer('WORKER_METRICS_PORT', 0, 0, 65535),
    testPauseAtCommit: read.raw('TEST_PAUSE_AT_COMMIT')
      ? read.oneOf('TEST_PAUSE_AT_COMMIT', 'after', ['before', 'after'] as const)
      : null,
  } satisfies Config;
  if (config.testPauseAtCommit && nodeEnv === 'production') {
    read.fail('TEST_PAUSE_AT_COMMIT is for tests and is refused in production');
    config.testPauseAtCommit = null;
  }

  const secret = read.raw('SECRET');
  if (secret !== undefined && secret.length < 32) read.fail('SECRET must be at least 32 characters');
  if (secret === undefined && nodeEnv === 'production') read.fail('SECRET is required when NODE_ENV is production');

  if (read.problems.length > 0) throw new ConfigError(read.problems);
  config.secret = secret ?? localSecret(dataDir);
  return Object.freeze(config);
}

function readMedia(read: Reader, publicOrigin: string): MediaConfig {
  const storage = read.oneOf('MEDIA_STORAGE', 'local', ['local', 's3'] as const);
  const publicBase = read.url('MEDIA_PUBLIC_URL', ['http:', 'https:']);
  let s3: MediaConfig['s3'] = null;
  if (storage === 's3') {
    const bucket = read.raw('S3_BUCKET');
    if (!bucket) read.fail('S3_BUCKET is required when MEDIA_STORAGE is s3');
    const endpoint = read.url('S3_ENDPOINT', ['http:', 'https:']);
    const accessKeyId = read.raw('S3_ACCESS_KEY_ID') ?? null;
    const secretAccessKey = read.raw('S3_SECRET_ACCESS_KEY') ?? null;
    if ((accessKeyId === null) !== (secretAccessKey === null)) {
      read.fail('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
    }
    s3 = {
      bucket: bucket ?? '',
      region: read.string('S3_REGION', 'us-east-1'),
      endpoint,
      // S3-compatible servers (MinIO, Ceph, R2) usually want path-style addressing.
      forcePathStyle: read.oneOf('S3_FORCE_PATH_STYLE', endpoint ? 'true' : 'false', ['true', 'false']) === 'true',
      accessKeyId,
      secretAccessKey,
    };
  }
  return { storage, publicBaseUrl: (publicBase ?? `${publicOrigin}/media`).replace(/\/+$/, ''), s3 };
}

function readOutbound(read: Reader, env: Environment): OutboundConfig {
  const hosts = read.raw('OUTBOUND_TEST_HOSTS');
  const caFile = read.raw('OUTBOUND_TEST_CA_FILE') ?? null;
  if ((hosts || caFile) && env === 'production') {
    read.fail('OUTBOUND_TEST_HOSTS and OUTBOUND_TEST_CA_FILE are for tests and are refused in production');
    return { testHosts: null, testCaFile: null };
  }
  let testHosts: Record<string, string> | null = null;
  if (hosts) {
    testHosts = {};
    for (const pair of hosts.split(',')) {
      const [name, address] = pair.split('=').map((part) => part.trim());
      if (!name || !address) read.fail(`OUTBOUND_TEST_HOSTS must be name=address pairs, got "${pair}"`);
      else testHosts[name.toLowerCase()] = address;
    }
  }
  return { testHosts, testCaFile: caFile };
}

/** The generated secret of a local install, kept beside its embedded database. */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Another process of this install wrote it first: use theirs.
    if (code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw new ConfigError([dataFolderProblem(dataDir, code)]);
  }
  return secret;
}

let current: Config | null = null;

/** The process's configuration, read on first use. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}

/** Reads the configuration or ends the process with one clear line: for entry points only. */
export function configOrExit(): Config {
  try {
    return config();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Tests and the one-machine starter set the database URL after choosing a database. */
export function resetConfigForTests(): void {
  current = null;
}

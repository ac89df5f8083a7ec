import Joi from 'joi';
import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { hostname } from 'node:os';
import proxyaddr from 'proxy-addr';
import { keyIdOf, publicKeyOf, signingKeyOf } from './security/ed25519';

/**
 * Which proxies in front of the node may speak for the client (TRUST_PROXY, docs/operations.md §Behind a proxy): a
 * number of hops, or addresses and CIDR ranges (and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 */
export type ProxyTrust = number | readonly string[];

/** Restricted views: 'hidden' (spec variant A, later) or 'forbidden' (variant B, earlier). */
export type RestrictedMode = 'hidden' | 'forbidden';

export interface Config {
  port: number;
  /** The metrics listener's port (`/metrics` only, on HOST); null: no metrics listener (docs/operations.md §Metrics). */
  metricsPort: number | null;
  host: string;
  role: 'api' | 'worker' | 'all';
  storeUrl: string;
  redisUrl: string | null;
  sessionSecret: string;
  /** True when SESSION_SECRET was not given and a random one is in use (single node only). */
  sessionSecretGenerated: boolean;
  authFile: string;
  publicBaseUrl: string | null;
  /**
   * Base of the URLs the API stores (document `url`): PUBLIC_BASE_URL, else this node's own HOST:PORT, never a
   * request's Host header (docs/platform.md §Documents and uploads).
   */
  storedUrlBase: string;
  /** The document service whose signed URLs documents may name (docs/platform.md §Document service); null = off. */
  docservice: DocserviceConfig | null;
  /**
   * The built-in document service's port (`DOCSERVICE_PORT`: its broker-facing routes on HOST,
   * docs/platform.md §Built-in document service); null: none on this node.
   */
  docservicePort: number | null;
  nodeId: string;
  logLevel: string;
  bodyLimit: number;
  /** The largest OCDS record package answered, bytes (docs/ocds.md §Records). */
  ocdsRecordLimit: number;
  /** Requests per minute per API key (per client address for anonymous readers); 0 = no limit. */
  rateLimitPerMinute: number;
  /** The proxies whose forwarded headers are believed (TRUST_PROXY); null = none, the socket's peer is the client. */
  trustProxy: ProxyTrust | null;
  /** A request still unanswered after this long gets 503; 0 = no limit. */
  requestTimeoutMs: number;
  /** After SIGTERM, how long the node keeps serving, unready and closing each connection, before it stops listening. */
  drainDelayMs: number;
  /** The live feed (docs/platform.md §Live feed): its store reads, keep-alives, per-stream buffer and caps. */
  feedStreams: FeedStreamConfig;
  /** Memory for rendered object views (src/http/rendered-views.ts); 0 = none kept. */
  viewCacheBytes: number;
  /** Memory for feed entries kept by their positions (src/store/kept-listings.ts); 0 = none kept. */
  feedCacheBytes: number;
  restrictedMode: RestrictedMode;
  sandboxMode: boolean;
  readPreference: string;
  heartbeatIntervalMs: number;
  heartbeatTtlMs: number;
  workerConcurrency: number;
  sweepIntervalMs: number;
  /** How far past its next_check an object must be before the sweeper takes it from the queue. */
  sweepGraceMs: number;
  /** TEST ONLY (TEST_STALE_READS=1 with NODE_ENV=test): SQLite reads lag this far behind and ignore cookies. */
  testStaleReadsMs: number | null;
}

/**
 * DOCSERVICE_URL, DOCSERVICE_PUBLIC_KEYS, DOCSERVICE_SIGNING_KEY (docs/platform.md §Document service). Keys are held
 * as KeyObjects only: logging or serializing one shows no key material.
 */
export interface DocserviceConfig {
  /** Public bases of the service, the first the one downloads redirect to; a document's url starts with one. */
  urls: readonly string[];
  /** The Ed25519 public keys whose signatures a document url may carry, by KeyID (the first 8 hex characters). */
  keyring: ReadonlyMap<string, KeyObject>;
  /** The key download URLs are signed with, and its KeyID; its public key is in the keyring too. */
  signingKey: KeyObject;
  keyId: string;
}

export interface FeedStreamConfig {
  /** How often a node reads each followed feed while it has streams, besides when its own commits wake it. */
  pollMs: number;
  /** How long a stream stays silent before it gets a keep-alive comment. */
  keepAliveMs: number;
  /** Bytes a stream may have waiting for its client; past them the stream ends (the client resumes from its last id). */
  bufferBytes: number;
  /** Open streams per API key, and per client address for readers without a key; 429 above. */
  perKey: number;
  perAddress: number;
}

const proxyList = (value: string): string[] => value.split(',').map((part) => part.trim());

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] });
// The texts never show a value: a signing key in an error would reach the log of a failed start.
const docserviceUrls = Joi.string()
  .custom((value: string) => {
    const urls = proxyList(value);
    if (urls.some((url) => httpUrl.validate(url).error)) throw new Error('not http URLs');
    return value;
  })
  .message('"DOCSERVICE_URL" must be one or more http(s) URLs, comma-separated');
const hexKeys = Joi.string()
  .custom((value: string) => {
    if (!proxyList(value).every((key) => HEX_KEY.test(key))) throw new Error('not keys');
    return value;
  })
  .message('"DOCSERVICE_PUBLIC_KEYS" must be Ed25519 public keys of 64 hex characters, comma-separated');

/** How far behind a TEST_STALE_READS node's snapshot may be. */
const STALE_READS_REFRESH_MS = 2000;

const schema = Joi.object({
  PORT: Joi.number().integer().min(0).max(65535).default(8080),
  METRICS_PORT: Joi.number().integer().min(0).max(65535),
  HOST: Joi.string().hostname().default('127.0.0.1'),
  ROLE: Joi.string().valid('api', 'worker', 'all').default('all'),
  STORE_URL: Joi.string()
    .pattern(/^(sqlite:.+|mongodb(\+srv)?:\/\/.+)$/)
    .message('"STORE_URL" must be sqlite:PATH or mongodb://HOST/...?replicaSet=NAME')
    .default('sqlite:./data/registry.db'),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  SESSION_SECRET: Joi.string().min(16),
  AUTH_FILE: Joi.string().default('./auth.ini'),
  PUBLIC_BASE_URL: httpUrl,
  DOCSERVICE_URL: docserviceUrls,
  DOCSERVICE_PUBLIC_KEYS: hexKeys,
  DOCSERVICE_PORT: Joi.number().integer().min(0).max(65535),
  DOCSERVICE_SIGNING_KEY: Joi.string().pattern(HEX_KEY).message('"DOCSERVICE_SIGNING_KEY" must be an Ed25519 seed of 64 hex characters'),
  NODE_ID: Joi.string()
    .pattern(/^[A-Za-z0-9._-]{1,64}$/)
    .message('"NODE_ID" must be 1-64 letters, digits, ".", "_" or "-"'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  BODY_LIMIT: Joi.number()
    .integer()
    .min(1024)
    .default(1024 * 1024),
  OCDS_RECORD_LIMIT: Joi.number()
    .integer()
    .min(1024)
    .default(16 * 1024 * 1024),
  RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(0).default(0),
  TRUST_PROXY: Joi.string()
    .custom((value: string) => {
      if (/^\d+$/.test(value)) return value;
      proxyaddr.compile(proxyList(value)); // throws on an address it cannot read
      return value;
    })
    .message(
      '"TRUST_PROXY" must be a number of proxy hops or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal',
    ),
  REQUEST_TIMEOUT_MS: Joi.number().integer().min(0).default(20_000),
  DRAIN_DELAY_MS: Joi.number().integer().min(0).max(120_000).default(0),
  FEED_STREAM_POLL_MS: Joi.number().integer().min(10).max(60_000).default(100),
  FEED_STREAM_KEEPALIVE_MS: Joi.number().integer().min(10).max(600_000).default(15_000),
  FEED_STREAM_BUFFER_KB: Joi.number().integer().min(1).max(65536).default(256),
  FEED_STREAMS_PER_KEY: Joi.number().integer().min(0).default(50),
  FEED_STREAMS_PER_ADDRESS: Joi.number().integer().min(0).default(20),
  VIEW_CACHE_MB: Joi.number().min(0).max(65536).default(16),
  FEED_CACHE_MB: Joi.number().min(0).max(65536).default(16),
  RESTRICTED_MODE: Joi.string().valid('hidden', 'forbidden').default('hidden'),
  SANDBOX_MODE: Joi.boolean().truthy('1').falsy('0').default(false),
  READ_PREFERENCE: Joi.string()
    .valid('primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', 'nearest')
    .default('secondaryPreferred'),
  HEARTBEAT_INTERVAL_MS: Joi.number().integer().min(100).default(2000),
  HEARTBEAT_TTL_MS: Joi.number().integer().min(300).default(10000),
  WORKER_CONCURRENCY: Joi.number().integer().min(1).max(64).default(4),
  SWEEP_INTERVAL_MS: Joi.number().integer().min(100).default(30000),
  SWEEP_GRACE_MS: Joi.number().integer().min(0).default(10000),
  TEST_STALE_READS: Joi.boolean().truthy('1').falsy('0').default(false),
})
  .unknown(true)
  .custom((env, helpers) => {
    if (env.REDIS_URL && env.ROLE === 'api' && !env.SESSION_SECRET) {
      return helpers.message({
        custom: '"SESSION_SECRET" is required when ROLE=api and REDIS_URL is set (every node must sign cookies alike)',
      });
    }
    if (env.TEST_STALE_READS && env.NODE_ENV !== 'test') {
      return helpers.message({ custom: '"TEST_STALE_READS" breaks session consistency on purpose and is refused unless NODE_ENV=test' });
    }
    if (env.DOCSERVICE_URL && !env.DOCSERVICE_SIGNING_KEY) {
      return helpers.message({
        custom: '"DOCSERVICE_SIGNING_KEY" is required when "DOCSERVICE_URL" is set (downloads redirect to URLs it signs)',
      });
    }
    if (env.DOCSERVICE_PORT !== undefined && !env.DOCSERVICE_URL) {
      return helpers.message({ custom: '"DOCSERVICE_PORT" needs "DOCSERVICE_URL" (the public base of the URLs it answers)' });
    }
    // The URLs the service answers are `<base>/get/<key>`, and a document's url must have exactly that path.
    if (env.DOCSERVICE_PORT !== undefined && new URL(proxyList(env.DOCSERVICE_URL)[0]).pathname.replace(/\/+$/, '') !== '') {
      return helpers.message({ custom: '"DOCSERVICE_URL" must be an origin without a path when "DOCSERVICE_PORT" is set' });
    }
    if (!env.DOCSERVICE_URL && (env.DOCSERVICE_SIGNING_KEY || env.DOCSERVICE_PUBLIC_KEYS)) {
      return helpers.message({
        custom: '"DOCSERVICE_PUBLIC_KEYS" and "DOCSERVICE_SIGNING_KEY" need "DOCSERVICE_URL" (the service they sign for)',
      });
    }
    if (env.HEARTBEAT_TTL_MS <= env.HEARTBEAT_INTERVAL_MS) {
      return helpers.message({ custom: '"HEARTBEAT_TTL_MS" must be greater than "HEARTBEAT_INTERVAL_MS"' });
    }
    return env;
  });

/**
 * OpenTelemetry tracing (src/tracing.ts), off unless an exporter is configured by the standard variables: an OTLP
 * endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or `OTEL_TRACES_EXPORTER` other
 * than `none`, and `OTEL_SDK_DISABLED` not `true`. The SDK reads every other `OTEL_*` variable itself; this only
 * decides whether to start it, and names the service `registry` unless `OTEL_SERVICE_NAME` does
 * (docs/operations.md §Traces). Read apart from loadConfig: the SDK starts before the modules it instruments load.
 */
export function tracingOptions(env: Record<string, string | undefined>): { serviceName: string | undefined } | null {
  const value = (name: string) => env[name]?.trim() ?? '';
  if (value('OTEL_SDK_DISABLED').toLowerCase() === 'true') return null;
  const exporters = value('OTEL_TRACES_EXPORTER')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const configured = exporters.length
    ? exporters.some((name) => name !== 'none')
    : value('OTEL_EXPORTER_OTLP_ENDPOINT') !== '' || value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== '';
  if (!configured) return null;
  return { serviceName: value('OTEL_SERVICE_NAME') === '' ? 'registry' : undefined };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** Pure: the only place that reads the environment's variables. Throws ConfigError listing every bad one. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const { error, value } = schema.validate(defined, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(error.details.map((d) => d.message));
  const publicBaseUrl: string | null = value.PUBLIC_BASE_URL ? value.PUBLIC_BASE_URL.replace(/\/+$/, '') : null;
  return Object.freeze({
    port: value.PORT,
    metricsPort: value.METRICS_PORT ?? null,
    host: value.HOST,
    role: value.ROLE,
    storeUrl: value.STORE_URL,
    redisUrl: value.REDIS_URL ?? null,
    sessionSecret: value.SESSION_SECRET ?? randomBytes(32).toString('hex'),
    sessionSecretGenerated: !value.SESSION_SECRET,
    authFile: value.AUTH_FILE,
    publicBaseUrl,
    storedUrlBase: publicBaseUrl ?? `http://${value.HOST}:${value.PORT}`,
    docservice: value.DOCSERVICE_URL
      ? docserviceConfig(value.DOCSERVICE_URL, value.DOCSERVICE_PUBLIC_KEYS, value.DOCSERVICE_SIGNING_KEY)
      : null,
    docservicePort: value.DOCSERVICE_PORT ?? null,
    nodeId: value.NODE_ID ?? `${hostname()}-${process.pid}`,
    logLevel: value.LOG_LEVEL,
    bodyLimit: value.BODY_LIMIT,
    ocdsRecordLimit: value.OCDS_RECORD_LIMIT,
    rateLimitPerMinute: value.RATE_LIMIT_PER_MINUTE,
    trustProxy:
      value.TRUST_PROXY === undefined ? null : /^\d+$/.test(value.TRUST_PROXY) ? Number(value.TRUST_PROXY) : proxyList(value.TRUST_PROXY),
    requestTimeoutMs: value.REQUEST_TIMEOUT_MS,
    drainDelayMs: value.DRAIN_DELAY_MS,
    feedStreams: Object.freeze({
      pollMs: value.FEED_STREAM_POLL_MS,
      keepAliveMs: value.FEED_STREAM_KEEPALIVE_MS,
      bufferBytes: value.FEED_STREAM_BUFFER_KB * 1024,
      perKey: value.FEED_STREAMS_PER_KEY,
      perAddress: value.FEED_STREAMS_PER_ADDRESS,
    }),
    viewCacheBytes: Math.round(value.VIEW_CACHE_MB * 2 ** 20),
    feedCacheBytes: Math.round(value.FEED_CACHE_MB * 2 ** 20),
    restrictedMode: value.RESTRICTED_MODE,
    sandboxMode: value.SANDBOX_MODE,
    readPreference: value.READ_PREFERENCE,
    heartbeatIntervalMs: value.HEARTBEAT_INTERVAL_MS,
    heartbeatTtlMs: value.HEARTBEAT_TTL_MS,
    workerConcurrency: value.WORKER_CONCURRENCY,
    sweepIntervalMs: value.SWEEP_INTERVAL_MS,
    sweepGraceMs: value.SWEEP_GRACE_MS,
    testStaleReadsMs: value.TEST_STALE_READS ? STALE_READS_REFRESH_MS : null,
  });
}

/** The keyring holds the signing key's public half first, then the listed keys, as the reference's (`dockey`, `dockeys`). */
function docserviceConfig(urls: string, publicKeys: string | undefined, seed: string): DocserviceConfig {
  const signingKey = signingKeyOf(seed);
  const own = createPublicKey(signingKey);
  const keyring = new Map([[keyIdOf(own), own]]);
  for (const hex of publicKeys ? proxyList(publicKeys) : []) keyring.set(hex.slice(0, 8).toLowerCase(), publicKeyOf(hex));
  return Object.freeze({
    urls: Object.freeze(proxyList(urls).map((url) => url.replace(/\/+$/, ''))),
    keyring,
    signingKey,
    keyId: keyIdOf(own),
  });
}

import t from 'tap';
import { ConfigError, loadConfig, tracingOptions } from '../../src/config';
import { inspect } from 'node:util';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

t.test('an empty environment gives the documented defaults', async (t) => {
  const c = loadConfig({});
  t.equal(c.port, 8080);
  t.equal(c.host, '127.0.0.1');
  t.equal(c.role, 'all');
  t.equal(c.storeUrl, 'sqlite:./data/registry.db');
  t.equal(c.redisUrl, null);
  t.equal(c.bodyLimit, 1024 * 1024);
  t.equal(c.restrictedMode, 'hidden');
  t.equal(c.feedCacheBytes, 16 * 2 ** 20);
  t.equal(c.trustProxy, null, 'no proxy is trusted');
  t.ok(c.sessionSecretGenerated, 'a random session secret is used without SESSION_SECRET');
  t.ok(c.sessionSecret.length >= 32);
});

t.test('every wrong value is named in one error', async (t) => {
  const problems = problemsOf({ PORT: 'eighty', ROLE: 'boss', STORE_URL: 'postgres://x', LOG_LEVEL: 'loud' });
  t.equal(problems.length, 4);
  t.match(problems.join('\n'), /"PORT" must be a number/);
  t.match(problems.join('\n'), /"ROLE" must be one of \[api, worker, all\]/);
  t.match(problems.join('\n'), /"STORE_URL" must be sqlite:PATH or mongodb/);
  t.match(problems.join('\n'), /"LOG_LEVEL" must be one of/);
});

t.test('FEED_CACHE_MB takes megabytes, 0 for none, and refuses a negative value', async (t) => {
  t.equal(loadConfig({ FEED_CACHE_MB: '0' }).feedCacheBytes, 0);
  t.equal(loadConfig({ FEED_CACHE_MB: '0.5' }).feedCacheBytes, 2 ** 19);
  t.match(problemsOf({ FEED_CACHE_MB: '-1' }).join('\n'), /"FEED_CACHE_MB" must be greater than or equal to 0/);
});

t.test('ROLE=api with REDIS_URL and no SESSION_SECRET is refused', async (t) => {
  t.match(
    problemsOf({ ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379' }).join(),
    /"SESSION_SECRET" is required when ROLE=api and REDIS_URL is set/,
  );
  t.same(problemsOf({ ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379', SESSION_SECRET: 'a-long-enough-secret' }), []);
});

t.test('a short SESSION_SECRET and a malformed PUBLIC_BASE_URL are refused', async (t) => {
  const problems = problemsOf({ SESSION_SECRET: 'short', PUBLIC_BASE_URL: 'not a url' });
  t.equal(problems.length, 2);
});

t.test('TRUST_PROXY takes a number of hops or a list of addresses, ranges and names; anything else is refused', async (t) => {
  t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback,fd00::1' }).trustProxy, ['10.0.0.0/8', 'loopback', 'fd00::1']);
  t.match(problemsOf({ TRUST_PROXY: 'true' }).join(), /"TRUST_PROXY" must be a number of proxy hops or a comma-separated list/);
  t.match(problemsOf({ TRUST_PROXY: '10.0.0.0/99' }).join(), /"TRUST_PROXY" must be/);
});

t.test('DOCSERVICE_*: off unless DOCSERVICE_URL; keys by KeyID; every bad value named without showing it', async (t) => {
  t.equal(loadConfig({}).docservice, null);
  const seed = '480310b588d10049d4a1199c37c258ecc9e2d15fde6851cbe8eaf35210fbefc0';
  const other = 'AB'.repeat(32);
  const c = loadConfig({
    DOCSERVICE_URL: 'https://ds.example/, http://old-ds.example',
    DOCSERVICE_SIGNING_KEY: seed,
    DOCSERVICE_PUBLIC_KEYS: other,
  });
  t.same(c.docservice?.urls, ['https://ds.example', 'http://old-ds.example']);
  t.equal(c.docservice?.keyId, 'a8968c46', "the signing key's public half, known by its first 8 hex characters");
  t.same([...c.docservice!.keyring.keys()], ['a8968c46', 'abababab']);
  t.notMatch(JSON.stringify(c) + inspect(c), seed.slice(8, 24), 'no key material when the config is shown');
  const bad = problemsOf({ DOCSERVICE_URL: 'ftp://ds, x', DOCSERVICE_SIGNING_KEY: `${seed}00`, DOCSERVICE_PUBLIC_KEYS: 'a8968c46' }).join(
    '\n',
  );
  t.match(bad, /"DOCSERVICE_URL" must be one or more http\(s\) URLs/);
  t.match(bad, /"DOCSERVICE_SIGNING_KEY" must be an Ed25519 seed of 64 hex characters/);
  t.match(bad, /"DOCSERVICE_PUBLIC_KEYS" must be Ed25519 public keys/);
  t.notMatch(bad, seed, 'a refused key is not echoed');
  t.match(problemsOf({ DOCSERVICE_URL: 'http://ds' }).join(), /"DOCSERVICE_SIGNING_KEY" is required when "DOCSERVICE_URL" is set/);
  t.match(problemsOf({ DOCSERVICE_SIGNING_KEY: seed }).join(), /need "DOCSERVICE_URL"/);
});

t.test('DOCSERVICE_PORT: the built-in service, on the origin DOCSERVICE_URL names', async (t) => {
  const seed = '480310b588d10049d4a1199c37c258ecc9e2d15fde6851cbe8eaf35210fbefc0';
  t.equal(loadConfig({}).docservicePort, null);
  t.equal(
    loadConfig({ DOCSERVICE_URL: 'https://ds.example/', DOCSERVICE_SIGNING_KEY: seed, DOCSERVICE_PORT: '6543' }).docservicePort,
    6543,
  );
  t.match(problemsOf({ DOCSERVICE_PORT: '6543' }).join(), /"DOCSERVICE_PORT" needs "DOCSERVICE_URL"/);
  t.match(
    problemsOf({ DOCSERVICE_URL: 'https://ds.example/files', DOCSERVICE_SIGNING_KEY: seed, DOCSERVICE_PORT: '6543' }).join(),
    /"DOCSERVICE_URL" must be an origin without a path when "DOCSERVICE_PORT" is set/,
  );
  t.match(
    problemsOf({ DOCSERVICE_URL: 'https://ds.example', DOCSERVICE_SIGNING_KEY: seed, DOCSERVICE_PORT: 'x' }).join(),
    /"DOCSERVICE_PORT" must be a number/,
  );
});

t.test('PUBLIC_BASE_URL loses its trailing slash', async (t) => {
  t.equal(loadConfig({ PUBLIC_BASE_URL: 'https://registry.example/' }).publicBaseUrl, 'https://registry.example');
});

t.test('the process exits with code 1 and the message on a bad variable', async (t) => {
  const { spawnSync } = await import('node:child_process');
  const res = spawnSync(process.execPath, ['--import=tsx', require.resolve('../../src/main.ts')], {
    env: { ...process.env, PORT: '-5', ROLE: 'nobody' },
    encoding: 'utf8',
  });
  t.equal(res.status, 1);
  t.match(res.stderr, /invalid configuration/);
  t.match(res.stderr, /"PORT" must be greater than or equal to 0/);
  t.match(res.stderr, /"ROLE" must be one of/);
});

t.test('tracing is off unless an exporter is configured by the OTEL_* variables', async (t) => {
  t.equal(tracingOptions({}), null, 'nothing set');
  t.equal(tracingOptions({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }), null, 'no exporter');
  t.same(tracingOptions({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), { serviceName: 'registry' });
  t.same(tracingOptions({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), { serviceName: 'registry' });
  t.same(tracingOptions({ OTEL_TRACES_EXPORTER: 'console' }), { serviceName: 'registry' });
  t.same(
    tracingOptions({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SERVICE_NAME: 'registry-eu' }),
    { serviceName: undefined },
    'the SDK takes the name',
  );
  t.equal(tracingOptions({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), null, 'none wins');
  t.equal(tracingOptions({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' }), null, 'disabled');
});

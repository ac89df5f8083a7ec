import t from 'tap';
import { ConfigError, loadConfig } from '../../src/config';

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

import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config';
import { encodeSession } from '../../src/http/session';
import { startNode, type RunningNode } from '../../src/node';
import { ManualClock } from '../../src/time/clock';
import { aFramework, DAY } from '../fixtures/frameworks';
import { DEFAULT_NOW, request } from '../fixtures/server';
import { startRedis } from '../jobs/fixtures/redis';

const SECRET = 'metrics-secret-metrics-secret';

/**
 * A whole node as `npm start` builds it (store instrumentation, jobs, membership), on a temporary SQLite file; the test
 * stops it unless `stop` says it does so itself.
 */
async function startMetricsNode(t: Test, env: Record<string, string> = {}, stop = true) {
  const dir = mkdtempSync(join(tmpdir(), 'registry-metrics-'));
  const config = loadConfig({
    PORT: '0',
    METRICS_PORT: '0',
    STORE_URL: `sqlite:${join(dir, 'registry.db')}`,
    AUTH_FILE: join(__dirname, '../../auth.ini'),
    SESSION_SECRET: SECRET,
    NODE_ID: 'metrics-node',
    LOG_LEVEL: 'silent',
    SWEEP_INTERVAL_MS: '100',
    ...env,
  });
  const clock = new ManualClock(DEFAULT_NOW);
  const node: RunningNode = await startNode(config, clock, pino({ level: 'silent' }));
  t.teardown(async () => {
    if (stop) await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { url: node.url!, metricsUrl: node.metricsUrl!, clock, node };
}

async function scrape(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}

/** The value of the first sample whose line starts with `prefix` (name plus the labels given, in prom-client's order). */
function sample(text: string, prefix: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Background work (timer ticks, sweeps) runs on real timers: wait for its series, at most `limitMs`. */
async function scrapeUntil(url: string, prefix: string, accept: (v: number) => boolean, limitMs = 15_000): Promise<string> {
  const until = Date.now() + limitMs;
  for (;;) {
    const text = await scrape(url);
    const value = sample(text, prefix);
    if ((value !== undefined && accept(value)) || Date.now() > until) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function activeFramework(url: string, clock: ManualClock) {
  const created = await request(url, 'POST', '/api/2.5/frameworks', { key: 'broker', body: { data: aFramework(clock.now()) } });
  const { id } = created.body.data;
  await request(url, 'PATCH', `/api/2.5/frameworks/${id}`, {
    key: 'broker',
    token: created.body.access.token,
    body: { data: { status: 'active' } },
  });
  return id as string;
}

let exposed = '';

t.test('after traffic, /metrics has HTTP, store, session 412, membership and check-latency series', async (t) => {
  const { url, metricsUrl, clock } = await startMetricsNode(t);
  const id = await activeFramework(url, clock);
  await request(url, 'GET', `/api/2.5/frameworks/${id}`);
  await request(url, 'GET', '/api/2.5/frameworks?limit=1');
  const gone = encodeSession({ node: 'gone-node', causal: { seq: 0 } }, SECRET);
  t.equal((await request(url, 'GET', '/api/2.5/frameworks', { headers: { cookie: `SESSION=${gone}; Path=/` } })).status, 412);
  clock.advance(401 * DAY);
  const text = await scrapeUntil(metricsUrl, 'registry_next_check_latency_seconds_count{kind="frameworks",source="timer"}', (v) => v >= 1);

  t.ok(
    sample(text, 'registry_http_requests_total{route="/api/2.5/frameworks",method="POST",status="201"}')! >= 1,
    'requests by route, method, status',
  );
  t.ok(
    sample(text, 'registry_http_request_duration_seconds_count{route="/api/2.5/frameworks/:id",method="GET"}')! >= 1,
    'latency by route',
  );
  t.ok(
    sample(text, 'registry_store_operation_duration_seconds_count{engine="sqlite",operation="commit",outcome="ok"}')! >= 2,
    'store commits timed',
  );
  t.ok(
    sample(text, 'registry_store_operation_duration_seconds_count{engine="sqlite",operation="feedListing",outcome="ok"}')! >= 1,
    'store feed reads timed',
  );
  t.ok(sample(text, 'registry_session_412_total')! >= 1, 'session 412 counted');
  t.equal(sample(text, 'registry_cluster_live_members'), 1, 'the node alone is alive');
  t.ok(
    sample(text, 'registry_next_check_latency_seconds_count{kind="frameworks",source="timer"}')! >= 1,
    'check latency after the clock passed next_check',
  );
  t.ok(sample(text, 'process_cpu_seconds_total')! > 0, 'default process metrics');
  exposed += text;
});

t.test('with Redis, /metrics has the next_check queue depth and the live members seen in Redis', async (t) => {
  const redis = await startRedis();
  // Registered first so that it runs last: tap runs teardowns in reverse, and the node still talks to Redis.
  t.teardown(() => redis.stop());
  const { url, metricsUrl, clock } = await startMetricsNode(t, { REDIS_URL: redis.url, NODE_ID: 'metrics-redis-node' });
  await activeFramework(url, clock);
  const text = await scrapeUntil(metricsUrl, 'registry_next_check_queue_depth{state="delayed"}', (v) => v >= 1);
  t.ok(sample(text, 'registry_next_check_queue_depth{state="delayed"}')! >= 1, 'the activated framework’s check waits in the queue');
  t.equal(sample(text, 'registry_cluster_live_members'), 1, 'one node announced in Redis');
  exposed += text;
});

/** The series names in what the nodes above exposed. */
const exposedNames = () =>
  new Set(
    exposed
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(/[{ ]/, 1)[0]),
  );

t.test('every expression of the Grafana dashboard names a series the app exposes', async (t) => {
  const dashboard = JSON.parse(readFileSync(join(__dirname, '../../k8s/grafana/registry-dashboard.json'), 'utf8'));
  const expressions: string[] = dashboard.panels.flatMap((p: { targets?: { expr: string }[] }) => (p.targets ?? []).map((x) => x.expr));
  t.ok(expressions.length >= 8, `${expressions.length} expressions`);
  const names = exposedNames();
  for (const expr of expressions) {
    const used = expr.match(/\b(?:registry|process|nodejs)_\w+/g) ?? [];
    t.ok(used.length > 0, `names a series: ${expr}`);
    for (const name of used) t.ok(names.has(name), `${name} is exposed`);
  }
});

t.test('every alert rule (k8s/base/prometheusrule.yaml) names only series the app exposes', async (t) => {
  const rule = parse(readFileSync(join(__dirname, '../../k8s/base/prometheusrule.yaml'), 'utf8')) as {
    spec: { groups: { rules: { alert: string; expr: string; annotations: { runbook?: string } }[] }[] };
  };
  const rules = rule.spec.groups.flatMap((g) => g.rules);
  t.ok(rules.length >= 10, `${rules.length} alerts`);
  const names = exposedNames();
  // A labelled counter shows no sample before its first count (registry_next_check_sweeper_recoveries_total): the
  // registered series count too.
  const { metrics } = await import('../../src/metrics');
  await import('../../src/jobs/job-metrics');
  const registered = new Set(metrics.getMetricsAsArray().map((m) => m.name));
  for (const { alert, expr, annotations } of rules) {
    t.ok((annotations.runbook ?? '').length > 40, `${alert} has runbook text`);
    for (const name of expr.match(/\bregistry_\w+/g) ?? []) {
      t.ok(names.has(name) || registered.has(name.replace(/_(bucket|count|sum)$/, '')), `${alert}: ${name} is exposed`);
    }
  }
});

t.test('metrics are served on METRICS_PORT only: the public port answers 404, the metrics port nothing but /metrics', async (t) => {
  const { url, metricsUrl } = await startMetricsNode(t, { NODE_ID: 'metrics-port-node' });
  t.not(new URL(metricsUrl).port, new URL(url).port, 'a listener of its own');
  const open = await fetch(`${url}/metrics`);
  t.equal(open.status, 404, 'not on the public port');
  t.notMatch(await open.text(), /registry_http_requests_total/);
  await fetch(`${url}/api/2.5/constants`);
  const scraped = await fetch(`${metricsUrl}/metrics`);
  t.equal(scraped.status, 200);
  t.match(scraped.headers.get('content-type'), /text\/plain/);
  const text = await scraped.text();
  t.match(text, /registry_http_requests_total\{route="\/api\/2.5\/constants",method="GET",status="200"\} \d+/);
  t.match(text, /registry_http_request_duration_seconds_bucket\{le="0.005",route="\/api\/2.5\/constants",method="GET"\}/);
  t.match(text, /process_resident_memory_bytes/);
  t.match(text, /registry_session_412_total/);
  for (const path of ['/api/2.5/tenders', '/healthz', '/api/2.5']) {
    t.equal((await fetch(`${metricsUrl}${path}`)).status, 404, `the metrics port serves no ${path}`);
  }
});

t.test('without METRICS_PORT no listener serves metrics', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-metrics-off-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = loadConfig({ PORT: '0', STORE_URL: `sqlite:${join(dir, 'registry.db')}`, AUTH_FILE: join(__dirname, '../../auth.ini') });
  t.equal(config.metricsPort, null);
  const node = await startNode(config, new ManualClock(DEFAULT_NOW), pino({ level: 'silent' }));
  t.teardown(() => node.stop());
  t.equal(node.metricsUrl, null);
  t.equal((await fetch(`${node.url}/metrics`)).status, 404);
});

t.test('a stopping node drains: /readyz answers 503 and every response closes its connection, then it stops', async (t) => {
  // DRAIN_DELAY_MS: long enough for the two requests below, on a loaded machine.
  const { node } = await startMetricsNode(t, { NODE_ID: 'draining-node', DRAIN_DELAY_MS: '1500' }, false);
  const before = await fetch(`${node.url}/readyz`);
  t.equal(before.status, 200);
  t.not(before.headers.get('connection'), 'close', 'keep-alive before the drain');
  const stopped = node.stop();
  const ready = await fetch(`${node.url}/readyz`);
  t.equal(ready.status, 503, 'unready at once');
  t.match(await ready.json(), { problems: ['draining: the node is stopping'] });
  t.equal(ready.headers.get('connection'), 'close');
  const read = await fetch(`${node.url}/api/2.5/frameworks`);
  t.equal(read.status, 200, 'still serves while draining');
  t.equal(read.headers.get('connection'), 'close', 'and sends the client elsewhere');
  await stopped;
  await t.rejects(fetch(`${node.url}/healthz`), 'stopped listening');
});

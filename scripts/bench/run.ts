/**
 * `npm run bench` / `npm run bench:ci`: the product (own process, embedded store) against a bare-Koa baseline
 * answering the same bytes, driven by autocannon from this process. Loads data with the loader at each size,
 * measures reads at every size, writes at the largest, and writes the table as Markdown and JSON under
 * scripts/results/. Never asserts a timing: targets are reported as met or not.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../cli';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { load, loadedManifest, manifestPath, type Manifest } from '../load/main';
import { makeTemplates } from '../load/templates';
import { bidCreateRow } from './bid-create';
import { lifecycleChainRow } from './lifecycle-chain';
import { drive, driveChain, type DriveOptions, type Measure, type RequestPlan } from './drive';
import { runEngines } from './engines';
import { isEmptyPage, nextPath } from './drive';
import { createPlan, patchPlan, type Owned } from './write-plans';
import { pageCacheMB, ROOT, startBaseline, startProduct, type Running } from './processes';
import { renderMarkdown, type Report, type ReadRow, type WriteRow, type SizeRow } from './report';

const API = '/api/2.5';
const FEED_QUERY = 'opt_fields=status,procuringEntity&limit=100';
const FRAMEWORK_FEED_QUERY = 'opt_fields=status,qualificationPeriod&limit=100';

const USAGE = `
usage: npm run bench -- [options]

Serves the same requests from the product and from a bare-Koa baseline on the same machine, at each store size,
and prints ratios, CPU per request and latencies (written under --out).

  --sizes N,N,...     stored tenders per run (default 1000,100000,1000000)
  --frameworks N      stored frameworks (default 1000)
  --duration S        seconds per side and scenario (default 4)
  --requests N        N requests per side and scenario instead of --duration (a count measures something however
                      busy the machine is)
  --rounds N          rounds of each read scenario
  --warmup S          warm-up seconds (default 1)
  --connections N     concurrent connections (default 10)
  --only REGEX        only the read scenarios whose name matches (with --store mongodb: any of its four)
  --no-writes         leave out the write scenarios
  --cpu-prof          write CPU profiles under scripts/results/profiles/
  --runner dist|tsx   run the product from dist/ (default) or with tsx
  --log-level LEVEL   the product's LOG_LEVEL (default warn)
  --db FILE           the SQLite file to load and serve
  --reuse             reuse --db as it is instead of loading it
  --keep-db           keep the loaded file afterwards
  --out DIR           results directory (default scripts/results)
  --name NAME         the results' file name
  --store ENGINE      sqlite (default), or mongodb: the engines side by side (GET, feed page, create, PATCH) on
                      --sizes' first size (default 2000), with the app's and the store server's CPU per request;
                      MongoDB is MONGODB_URL or the project's test server (scripts/mongo-test-server.sh)
  --nodes N,N,...     with --store mongodb: creates through N API nodes on one MongoDB (default 1,3; 0 = none)
  --ci                the small run CI's smoke test makes
  -h, --help          this text
`;

function options() {
  const { values } = parseCli(USAGE, {
    ci: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    frameworks: { type: 'string' },
    duration: { type: 'string' },
    requests: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    runner: { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    db: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    'keep-db': { type: 'boolean', default: false },
    'no-writes': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'scripts/results') },
    name: { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string' },
    store: { type: 'string', default: 'sqlite' },
    nodes: { type: 'string', default: '1,3' },
  });
  const ci = values.ci;
  const out = values.out;
  if (values.store !== 'sqlite' && values.store !== 'mongodb') throw new Error(`--store: sqlite or mongodb, not ${values.store}`);
  const engines = values.store === 'mongodb';
  if (values.requests !== undefined && !(Number(values.requests) >= 1 && Number.isInteger(Number(values.requests))))
    throw new Error(`--requests: a whole number of requests, 1 or more, not ${values.requests}`);
  return {
    ci,
    engines,
    nodes: values.nodes
      .split(',')
      .map(Number)
      .filter((n) => n > 0),
    sizes: (values.sizes ?? (ci ? '200,1000' : engines ? '2000' : '1000,100000,1000000')).split(',').map(Number),
    frameworks: Number(values.frameworks ?? (ci ? 20 : 1000)),
    duration: Number(values.duration ?? (ci ? 1 : 4)),
    requests: values.requests ? Number(values.requests) : undefined,
    warmup: Number(values.warmup ?? (ci ? 0 : 1)),
    connections: Number(values.connections ?? (ci ? 4 : 10)),
    runner: (values.runner ?? (ci ? 'tsx' : 'dist')) as 'dist' | 'tsx',
    logLevel: values['log-level'],
    db: values.db ?? join(out, ci ? 'bench-ci.db' : 'bench.db'),
    reuse: values.reuse,
    keepDb: values['keep-db'],
    writes: !values['no-writes'],
    cpuProf: values['cpu-prof'],
    out,
    name: values.name ?? (engines ? 'bench-engines' : ci ? 'bench-ci' : 'bench'),
    /** Runs only the read scenarios whose name matches (e.g. for a focused profile). */
    only: values.only ? new RegExp(values.only, 'i') : null,
    /** Alternating product/baseline runs per scenario; `duration` is split between them. */
    rounds: Number(values.rounds ?? (ci ? 1 : 3)),
  };
}
type Options = ReturnType<typeof options>;

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const pickFrom = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text() };
}

interface ReadScenario {
  name: string;
  /** Requests for the product; `probe` is one of them. */
  plan: (maxSeq: number) => RequestPlan;
  probe: (maxSeq: number) => { path: string; headers?: Record<string, string> };
  /** Responses to capture for the baseline, in order. */
  capture: (url: string, maxSeq: number) => Promise<string[]>;
  /** Stand-in payloads (the stored envelopes) when the product cannot answer this scenario yet. */
  standIn?: (db: string) => Promise<string[]>;
}

function objectScenario(name: string, kind: 'tenders' | 'frameworks', ids: () => string[], headers?: Record<string, string>): ReadScenario {
  return {
    name,
    plan: () => ({ headers, path: () => `${API}/${kind}/${pickFrom(ids())}` }),
    probe: () => ({ path: `${API}/${kind}/${ids()[0]}`, headers }),
    async capture(url) {
      const out: string[] = [];
      for (let i = 0; i < Math.min(100, ids().length); i++) out.push((await get(`${url}${API}/${kind}/${ids()[i]}`, headers)).text);
      return out;
    },
    async standIn(db) {
      const store = openSqliteStore(db);
      const session = store.session();
      const out: string[] = [];
      for (const id of ids().slice(0, 100)) {
        const s = await session.get(kind, id);
        if (s) out.push(JSON.stringify({ data: s.doc.data, config: s.doc.config }));
      }
      await store.close();
      return out;
    },
  };
}

/**
 * A feed crawler per connection. With `randomStart`, each starts at a random position of the store's history
 * (tenders fill it); otherwise at the beginning, as a new crawler does.
 */
function feedScenario(name: string, kind: 'tenders' | 'frameworks', query: string, descending: boolean, randomStart = true): ReadScenario {
  const start = (maxSeq: number) =>
    `${API}/${kind}?${query}${descending ? '&descending=1' : ''}${randomStart ? `&offset=${Math.floor(Math.random() * maxSeq)}` : ''}`;
  return {
    name,
    plan: (maxSeq) => ({
      // Each connection is a crawler: it starts at a random position and follows next_page to the end.
      path: (ctx) => ctx.next ?? start(maxSeq),
      onResponse(status, body, ctx) {
        ctx.next = status === 200 && !isEmptyPage(body) ? (nextPath(body) ?? undefined) : undefined;
      },
    }),
    probe: () => ({ path: `${API}/${kind}?${query}` }),
    async capture(url, maxSeq) {
      const out: string[] = [];
      let path: string | null = start(maxSeq);
      while (out.length < 30 && path) {
        const r = await get(`${url}${path}`);
        out.push(r.text);
        path = isEmptyPage(r.text) ? start(maxSeq) : nextPath(r.text);
      }
      return out;
    },
  };
}

async function maxSeqOf(url: string): Promise<number> {
  const r = await get(`${url}${API}/tenders?descending=1&limit=1`);
  if (r.status !== 200) return 0;
  return Number(JSON.parse(r.text).next_page?.offset ?? 0);
}

function build(o: Options) {
  if (o.runner !== 'dist') return;
  log('building (tsc -p tsconfig.json)');
  const r = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) log(`tsc exited ${r.status} (type errors elsewhere in the tree); using what it emitted:\n${r.stdout.slice(0, 1000)}`);
  if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('dist/src/main.js was not built');
}

async function main() {
  const o = options();
  mkdirSync(o.out, { recursive: true });
  if (o.engines) {
    build(o);
    await runEngines({ ...o, tenders: o.sizes[0] });
    return;
  }
  if (!o.reuse) for (const f of [o.db, `${o.db}-wal`, `${o.db}-shm`, manifestPath(o.db)]) rmSync(f, { force: true });
  const started = Date.now();
  const loadStart = loadavg();
  build(o);
  const d = (server: Running): DriveOptions => ({
    url: server.url,
    pid: server.pid,
    connections: o.connections,
    duration: o.duration,
    requests: o.requests,
    warmup: o.warmup,
  });

  // A reused file is measured as it is: only what a size asks beyond what it holds is loaded.
  let manifest: Manifest | null = o.reuse ? loadedManifest(o.db) : null;
  const reads: ReadRow[] = [];
  const sizes: SizeRow[] = [];
  const writes: WriteRow[] = [];
  const profiles: string[] = [];
  const scenarios: ReadScenario[] = [
    objectScenario('GET tender (public)', 'tenders', () => manifest!.samples.active),
    objectScenario('GET tender (restricted, masked)', 'tenders', () => manifest!.samples.restricted),
    objectScenario('GET tender (restricted, broker key)', 'tenders', () => manifest!.samples.restricted, {
      authorization: 'Bearer broker',
    }),
    feedScenario('feed page of 100', 'tenders', FEED_QUERY, false),
    feedScenario('feed page of 100, descending', 'tenders', FEED_QUERY, true),
    objectScenario('GET framework', 'frameworks', () => manifest!.samples.frameworks),
    feedScenario('frameworks feed page of 100', 'frameworks', FRAMEWORK_FEED_QUERY, false, false),
  ].filter((s) => !o.only || o.only.test(s.name));

  const templates = await makeTemplates();
  for (const [si, size] of o.sizes.entries()) {
    const have = manifest ? manifest.counts.active + manifest.counts.restricted + manifest.counts.draft : 0;
    const t0 = Date.now();
    const delta = Math.max(0, size - have);
    log(`size ${size}: loading ${delta} tenders`);
    manifest = await load({
      db: o.db,
      tenders: delta,
      frameworks: si === 0 ? Math.max(0, o.frameworks - (manifest?.counts.frameworks ?? 0)) : 0,
      restrictedShare: 0.1,
      draftShare: 0.05,
      batch: 20000,
      cacheMiB: 256,
      sample: 20000,
      progress: !o.ci,
      templates,
    });
    const loadSeconds = (Date.now() - t0) / 1000;
    const last = si === o.sizes.length - 1;
    const product = await startProduct({
      db: o.db,
      runner: o.runner,
      logLevel: o.logLevel,
      nodeArgs: o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(o.out, 'profiles')}`, `--cpu-prof-name=product-${size}.cpuprofile`] : [],
    });
    if (o.cpuProf) profiles.push(join(o.out, 'profiles', `product-${size}.cpuprofile`));
    const pageCacheAtReads = pageCacheMB();
    const maxSeq = await maxSeqOf(product.url);
    const payloads: Record<string, string[]> = {};
    const missing: (string | null)[] = [];
    for (const [k, s] of scenarios.entries()) {
      const probe = s.probe(maxSeq);
      const p = await get(`${product.url}${probe.path}`, probe.headers);
      missing.push(p.status === 200 ? null : `product answers ${p.status}`);
      if (p.status === 200) payloads[`s${k}`] = await s.capture(product.url, maxSeq);
      else if (s.standIn) payloads[`s${k}`] = await s.standIn(o.db);
    }
    const payloadFile = join(o.out, `${o.name}-payloads.json`);
    writeFileSync(payloadFile, JSON.stringify(payloads));
    const baseline: Running = await startBaseline(payloadFile);
    // Product and baseline take turns, `rounds` short runs each, and the best run of each side counts: on a
    // shared machine other load only ever slows a run down, and both sides see the same spells of it.
    const roundSeconds = Math.max(0.25, o.duration / o.rounds);
    const best = (runs: Measure[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
    for (const [k, s] of scenarios.entries()) {
      const list = payloads[`s${k}`];
      const prodRuns: Measure[] = [];
      const baseRuns: Measure[] = [];
      log(`size ${size}: ${s.name}`);
      for (let r = 0; r < o.rounds; r++) {
        const round = {
          duration: roundSeconds,
          requests: o.requests && Math.ceil(o.requests / o.rounds),
          warmup: r === 0 ? o.warmup : 0,
        };
        if (!missing[k]) prodRuns.push(await drive({ ...d(product), ...round }, s.plan(maxSeq)));
        if (list?.length) {
          baseRuns.push(await drive({ ...d(baseline), ...round }, { path: () => `/b/s${k}/${Math.floor(Math.random() * list.length)}` }));
        }
      }
      const prod = prodRuns.length ? best(prodRuns) : null;
      const base = baseRuns.length ? best(baseRuns) : null;
      reads.push({
        scenario: s.name,
        size,
        product: prod,
        baseline: base,
        ratio: prod && base ? prod.rps / base.rps : null,
        note: missing[k] ? (base ? `${missing[k]}; baseline serves the stored envelopes` : missing[k]) : undefined,
      });
    }
    const afterReads = product.memory();
    if (last && o.writes) writes.push(...(await runWrites(d(product), product.metricsUrl!, manifest)));
    const end = product.memory();
    await product.stop();
    await baseline.stop();
    rmSync(payloadFile, { force: true });
    const dbBytes = [o.db, `${o.db}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
    sizes.push({
      size,
      stored: manifest.counts,
      dbMB: dbBytes / 2 ** 20,
      loadSeconds,
      loadRate: delta / loadSeconds,
      rssMB: afterReads.rssMB,
      peakMB: end.peakMB,
      pageCacheMB: pageCacheAtReads,
      load1: loadavg()[0],
    });
  }
  if (!o.keepDb) for (const f of [o.db, `${o.db}-wal`, `${o.db}-shm`, manifestPath(o.db)]) rmSync(f, { force: true });

  const report: Report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', memGB: totalmem() / 2 ** 30, node: process.version },
    options: { ...o },
    loadAverage: { start: loadStart, end: loadavg() },
    seconds: (Date.now() - started) / 1000,
    templateSource: manifest?.templateSource ?? 'none',
    notes: manifest?.notes ?? [],
    docBytes: manifest?.docBytes ?? null,
    reads,
    sizes,
    writes,
    profiles,
  };
  const md = renderMarkdown(report);
  writeFileSync(join(o.out, `${o.name}.json`), JSON.stringify(report, null, 2));
  writeFileSync(join(o.out, `${o.name}.md`), md);
  process.stdout.write(md);
  log(`done in ${report.seconds.toFixed(0)} s; ${join(o.out, `${o.name}.md`)} and .json written`);
}

async function runWrites(d: DriveOptions, metricsUrl: string, manifest: Manifest): Promise<WriteRow[]> {
  const rows: WriteRow[] = [];
  const headers = { authorization: 'Bearer broker', 'content-type': 'application/json' };
  const owned: Owned[] = [];
  const probe = await fetch(`${d.url}${API}/tenders`, { method: 'POST', headers, body: JSON.stringify(manifest.bodies.tender) });
  const probeText = await probe.text();
  if (probe.status !== 201) {
    rows.push({ scenario: 'POST tender (create)', result: null, note: `product answers ${probe.status}` });
    rows.push({ scenario: 'PATCH tender (owner token)', result: null, note: 'needs POST /tenders' });
  } else {
    log('writes: POST tender');
    const createBatches = await commitBatches(metricsUrl);
    const create = await drive(d, createPlan(manifest.bodies.tender, owned));
    rows.push({ scenario: 'POST tender (create)', result: create, note: await createBatches() });
    const probeBody = JSON.parse(probeText);
    if (!owned.length) owned.push({ id: probeBody.data.id, token: probeBody.access.token });
    log('writes: PATCH tender');
    const patchBatches = await commitBatches(metricsUrl);
    const patch = await drive(d, patchPlan(owned, d.connections));
    rows.push({ scenario: 'PATCH tender (owner token)', result: patch, note: await patchBatches() });
  }
  log('writes: framework → submission → qualification');
  const chainBatches = await commitBatches(metricsUrl);
  const chain = await driveChain(d, async (call) => {
    const f = await call({ method: 'POST', path: `${API}/frameworks`, body: manifest.bodies.framework, status: 201 });
    await call({
      method: 'PATCH',
      path: `${API}/frameworks/${f.data.id}?acc_token=${f.access.token}`,
      body: { data: { status: 'active' } },
      status: 200,
    });
    const sub = manifest.bodies.submission;
    const s = await call({
      method: 'POST',
      path: `${API}/submissions`,
      body: { ...sub, data: { ...sub.data, frameworkID: f.data.id } },
      status: 201,
    });
    const a = await call({
      method: 'PATCH',
      path: `${API}/submissions/${s.data.id}?acc_token=${s.access.token}`,
      body: { data: { status: 'active' } },
      status: 200,
    });
    await call({
      method: 'PATCH',
      path: `${API}/qualifications/${a.data.qualificationID}?acc_token=${f.access.token}`,
      body: { data: { status: 'active' } },
      status: 200,
    });
  });
  rows.push({
    scenario: 'framework → submission → qualification (5 requests)',
    result: chain.failure ? null : chain,
    note: chain.failure ? `stopped: ${chain.failure}` : `${chain.chains} chains, ${chain.requests} requests; ${await chainBatches()}`,
  });
  log('writes: POST bid');
  rows.push(await bidCreateRow(d, manifest));
  log('writes: lifecycle chain');
  rows.push(await lifecycleChainRow(d, manifest));
  return rows;
}

/**
 * Group commit at work during a scenario: from the product's `registry_store_commit_batch_size` histogram, read
 * now and again when the returned function is called, the mean number of commits per write transaction.
 */
async function commitBatches(metricsUrl: string): Promise<() => Promise<string | undefined>> {
  const read = async () => {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    return { commits: value('registry_store_commit_batch_size_sum'), transactions: value('registry_store_commit_batch_size_count') };
  };
  const before = await read();
  return async () => {
    const after = await read();
    const transactions = after.transactions - before.transactions;
    if (!(transactions > 0)) return undefined;
    return `${((after.commits - before.commits) / transactions).toFixed(1)} commits per write transaction`;
  };
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});

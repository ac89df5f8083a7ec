/**
 * `npm run bench -- --store mongodb`: the same tenders served by the product on each engine, SQLite then MongoDB
 * (the project's test server, or MONGODB_URL), side by side: requests/s, latency, the app's CPU per request and,
 * on MongoDB, the store server's CPU per request apart. Never asserts a timing: the 2× target is reported.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { DEFAULT_BLOCK_SIZE } from '../../src/store/mongo/counters';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { copyStore } from '../migrate/copy-store';
import { countRoundTrips, formatRoundTrips } from './round-trips';
import { load, manifestPath, type Manifest } from '../load/main';
import { drive, isEmptyPage, nextPath, percentile, type DriveOptions, type Measure, type RequestPlan } from './drive';
import { cpuSecondsOf, machineCpuSeconds, ROOT, startProduct, type Running } from './processes';
import { createPlan, patchPlan, type Owned } from './write-plans';

const API = '/api/2.5';
const FEED_QUERY = 'opt_fields=status,procuringEntity&limit=100';
const SCENARIOS = ['GET tender (public)', 'feed page of 100', 'POST tender (create)', 'PATCH tender (owner token)'] as const;

export interface EngineOptions {
  tenders: number;
  frameworks: number;
  duration: number;
  /** A fixed count of requests per scenario instead of `duration` (DriveOptions.requests). */
  requests?: number;
  warmup: number;
  connections: number;
  runner: 'dist' | 'tsx';
  logLevel: string;
  db: string;
  out: string;
  name: string;
  /** API node counts of the create-scaling runs (e.g. [1, 3]); none when empty. */
  nodes: number[];
  /** Profiles of the product on each engine, `engine-<engine>.cpuprofile` under `<out>/profiles`. */
  cpuProf?: boolean;
  /** Only the scenarios whose name matches (a PATCH still creates the tenders it edits). */
  only?: RegExp | null;
}

interface ScalingRow {
  /** API node processes, or 0 for a bare driver client making a create's writes (the store's ceiling). */
  nodes: number;
  createsPerSecond: number;
  p50: number;
  p99: number;
  /** Each node's CPU, in % of one core. */
  nodeCpu: number[];
  /** The store server's CPU, in % of one core. */
  storeCpu: number;
  /** The whole machine's CPU, in % of one core (100 × cores when every core is busy). */
  machineCpu: number;
}

/** Each engine's node CPU per second while idle (µs/s). */
type IdleCpu = Record<'sqlite' | 'mongodb', number>;

interface EngineRow {
  scenario: string;
  sqlite: Measure;
  mongodb: Measure;
  /** SQLite paced at MongoDB's requests/s: the CPU per request of the same load, apart from how busy the node is. */
  sqliteAtRate: Measure;
  /** The same, beside a process burning as much CPU as the store server did in MongoDB's run. */
  sqliteAtRateBeside: Measure;
}

/** How the SQLite run copies a MongoDB one: at its requests/s, and beside a stand-in for its store server's CPU. */
interface Copy {
  of: Map<string, Measure>;
  beside: boolean;
}

/** The share of one core a measured store server used. */
const storeCores = (m: Measure) => (m.storeCpuUs * m.rps) / 1e6;

/**
 * A process that burns `cores` of one core (a busy slice of each 10 ms), standing in for the store server's CPU on
 * the same machine without serving anything.
 */
function burnCpu(cores: number): { stop(): void } {
  const busyMs = Math.max(0, Math.min(10, cores * 10));
  const child = spawn(
    process.execPath,
    ['-e', `setInterval(() => { const end = performance.now() + ${busyMs}; while (performance.now() < end); }, 10)`],
    { stdio: 'ignore' },
  );
  return { stop: () => void child.kill() };
}

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

const IDLE_SECONDS = 5;

/**
 * The node's CPU per second while it serves nothing (µs/s): the work it does on a timer whatever its load (the
 * feed floors' heartbeat, the change stream's polling, the driver's monitoring on MongoDB). A store that answers a
 * few requests a second spreads that work over few requests; subtracting it gives what a request itself costs.
 */
async function idleCpuUsPerSecond(pid: number): Promise<number> {
  await sleep(1000); // what start-up left (the first heartbeats, compiling) is not idle work
  const before = cpuSecondsOf(pid);
  const started = performance.now();
  await sleep(IDLE_SECONDS * 1000);
  return ((cpuSecondsOf(pid) - before) * 1e6) / ((performance.now() - started) / 1000);
}

/** A request's CPU without the node's idle work over the time the request took of the run. */
const netOfIdle = (m: Measure, idleUsPerSecond: number) => m.cpuUs - idleUsPerSecond / m.rps;
const pickFrom = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

/** A MongoDB server to measure: MONGODB_URL, or the project's test server started for the run (and its pid). */
function mongoServer(): { url: string; pid: number; stop(): void } {
  const script = join(ROOT, 'scripts/mongo-test-server.sh');
  const given = process.env.MONGODB_URL;
  const url = given ?? execFileSync(script, ['--background'], { encoding: 'utf8' }).trim();
  const port = /^mongodb:\/\/[^:/]+:(\d+)/.exec(url)?.[1];
  const pidFile = join(ROOT, 'data/mongo-test-server', `${port}.pid`);
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : NaN;
  return { url, pid, stop: () => (given ? undefined : void execFileSync(script, ['--stop', port!])) };
}

const withDatabase = (url: string, name: string) => url.replace(/^(mongodb:\/\/[^/?]*)(\/[^?]*)?/, `$1/${name}`);

/** Copies the loaded SQLite file into an empty MongoDB database through the store port (docs/operations.md §Migration). */
async function copyToMongo(db: string, url: string): Promise<void> {
  const from = openSqliteStore(db);
  const to = await openMongoStore(url);
  try {
    await copyStore(from, to, { batch: 500, blobBatch: 16, dryRun: false });
  } finally {
    await from.close();
    await to.close();
  }
}

/** The scenarios (all four, or those `only` names) on one running product, by name; each as `copy` says when given. */
async function measure(d: DriveOptions, manifest: Manifest, only?: RegExp | null, copy?: Copy): Promise<Map<string, Measure>> {
  const wanted = (scenario: string) => !only || only.test(scenario);
  const feed: RequestPlan = {
    // Each connection is a crawler from the start of the feed, following next_page and starting over at the end.
    path: (ctx) => ctx.next ?? `${API}/tenders?${FEED_QUERY}`,
    onResponse(status, body, ctx) {
      ctx.next = status === 200 && !isEmptyPage(body) ? (nextPath(body) ?? undefined) : undefined;
    },
  };
  const owned: Owned[] = [];
  let refused: string | undefined;
  const results = new Map<string, Measure>();
  const run = async (scenario: (typeof SCENARIOS)[number], plan: RequestPlan) => {
    const copied = copy?.of.get(scenario);
    const cores = copied ? storeCores(copied) : NaN;
    // With MONGODB_URL the store server's CPU is unknown (NaN): nothing is burnt.
    const burner = copy?.beside && Number.isFinite(cores) ? burnCpu(cores) : null;
    log(`  ${scenario}${copied ? ` at ${Math.round(copied.rps)} req/s${burner ? `, beside ${cores.toFixed(2)} core burnt` : ''}` : ''}`);
    try {
      const measured = await drive({ ...d, rate: copied?.rps }, plan);
      if (!measured.requests)
        throw new Error(`${scenario}: measured nothing, no request answered in ${d.duration} s; measure by count with --requests N`);
      results.set(scenario, measured);
    } finally {
      burner?.stop();
    }
  };
  if (wanted(SCENARIOS[0])) await run(SCENARIOS[0], { path: () => `${API}/tenders/${pickFrom(manifest.samples.active)}` });
  if (wanted(SCENARIOS[1])) await run(SCENARIOS[1], feed);
  if (wanted(SCENARIOS[2]) || wanted(SCENARIOS[3])) {
    await run(
      SCENARIOS[2],
      createPlan(manifest.bodies.tender, owned, (status, body) => (refused ??= `${status} ${body.slice(0, 300)}`)),
    );
    if (!wanted(SCENARIOS[2])) results.delete(SCENARIOS[2]);
  }
  if (wanted(SCENARIOS[3])) {
    if (!owned.length) throw new Error(`no tender created to PATCH: ${refused}`);
    await run(SCENARIOS[3], patchPlan(owned, d.connections));
  }
  return results;
}

const us = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));

function renderMarkdown(rows: EngineRow[], idle: IdleCpu, o: EngineOptions, server: string): string {
  const lines = [
    `# Engines side by side`,
    '',
    `${o.tenders} tenders (10 % restricted, 5 % drafts), ${o.connections} connections, ${o.duration} s a scenario, one node process;`,
    `MongoDB: ${server}. Load average at the end ${loadavg()[0].toFixed(1)}. CPU per request in µs (user + system).`,
    '',
    '| Scenario | req/s SQLite | req/s MongoDB | p50 / p99 ms SQLite | p50 / p99 ms MongoDB | app CPU SQLite | app CPU MongoDB | MongoDB / SQLite | store server CPU (MongoDB) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const ratioText = (ratio: number) => `${ratio.toFixed(2)}× ${ratio <= 2 ? '(met)' : '(missed)'}`;
  for (const { scenario, sqlite, mongodb } of rows) {
    lines.push(
      `| ${scenario} | ${us(sqlite.rps)} | ${us(mongodb.rps)} | ${ms(sqlite.p50)} / ${ms(sqlite.p99)} | ${ms(mongodb.p50)} / ${ms(mongodb.p99)} | ` +
        `${us(sqlite.cpuUs)} | ${us(mongodb.cpuUs)} | ${ratioText(mongodb.cpuUs / sqlite.cpuUs)} | ${us(mongodb.storeCpuUs)} |`,
    );
  }
  lines.push(
    '',
    "The same load on SQLite at MongoDB's requests/s, alone and beside a process burning the CPU the store server used",
    '(one core of two here): how much of the difference is the node waiting on its store and sharing the cores with it.',
    '',
    '| Scenario | req/s (paced) | store server, cores | app CPU SQLite paced | app CPU SQLite paced, beside | app CPU MongoDB | MongoDB / SQLite paced | MongoDB / SQLite paced, beside |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const { scenario, sqliteAtRate, sqliteAtRateBeside, mongodb } of rows) {
    lines.push(
      `| ${scenario} | ${us(sqliteAtRate.rps)} | ${Number.isFinite(storeCores(mongodb)) ? storeCores(mongodb).toFixed(2) : '–'} | ${us(sqliteAtRate.cpuUs)} | ${us(sqliteAtRateBeside.cpuUs)} | ` +
        `${us(mongodb.cpuUs)} | ${ratioText(mongodb.cpuUs / sqliteAtRate.cpuUs)} | ${ratioText(mongodb.cpuUs / sqliteAtRateBeside.cpuUs)} |`,
    );
  }
  lines.push(
    '',
    `Net of the node's idle work: its CPU over ${IDLE_SECONDS} s serving nothing, before the scenarios, was ` +
      `${us(idle.sqlite / 1000)} ms a second on SQLite and ${us(idle.mongodb / 1000)} ms on MongoDB; each request below is charged ` +
      'its CPU less that rate over the time it took of the run.',
    '',
    '| Scenario | app CPU SQLite, net | app CPU SQLite paced, net | app CPU MongoDB, net | MongoDB / SQLite, net | MongoDB / SQLite paced, net |',
    '|---|---|---|---|---|---|',
  );
  for (const { scenario, sqlite, sqliteAtRate, mongodb } of rows) {
    const [fast, paced, mongo] = [netOfIdle(sqlite, idle.sqlite), netOfIdle(sqliteAtRate, idle.sqlite), netOfIdle(mongodb, idle.mongodb)];
    lines.push(`| ${scenario} | ${us(fast)} | ${us(paced)} | ${us(mongo)} | ${ratioText(mongo / fast)} | ${ratioText(mongo / paced)} |`);
  }
  const create = rows.find((r) => r.scenario === 'POST tender (create)')?.mongodb;
  if (create) lines.push('', `Create on MongoDB: p99 / p50 = ${(create.p99 / create.p50).toFixed(1)} (target ≤ 5).`);
  return `${lines.join('\n')}\n`;
}

/**
 * Creates through N API node processes on one MongoDB database, each driven by its own `connections` clients:
 * creates/s, and the CPU of every node and of the store server, to tell which saturates first.
 */
async function createScaling(o: EngineOptions, manifest: Manifest, mongoUrl: string, storePid: number): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = [];
  for (const count of o.nodes) {
    log(`create scaling: ${count} node(s)`);
    const nodes: Running[] = [];
    try {
      for (let i = 0; i < count; i++)
        nodes.push(await startProduct({ db: o.db, runner: o.runner, logLevel: o.logLevel, storeUrl: mongoUrl }));
      const storeBefore = cpuSecondsOf(storePid);
      const machineBefore = machineCpuSeconds();
      const started = performance.now();
      const runs = await Promise.all(
        nodes.map((node) =>
          drive(
            { url: node.url, pid: node.pid, connections: o.connections, duration: o.duration, requests: o.requests, warmup: o.warmup },
            createPlan(manifest.bodies.tender, []),
          ),
        ),
      );
      const seconds = (performance.now() - started) / 1000 - o.warmup;
      rows.push({
        nodes: count,
        createsPerSecond: runs.reduce((sum, run) => sum + run.rps, 0),
        p50: Math.max(...runs.map((run) => run.p50)),
        p99: Math.max(...runs.map((run) => run.p99)),
        nodeCpu: runs.map((run) => (run.cpuUs * run.rps) / 1e4),
        storeCpu: ((cpuSecondsOf(storePid) - storeBefore) / (seconds + o.warmup)) * 100,
        machineCpu: ((machineCpuSeconds() - machineBefore) / (seconds + o.warmup)) * 100,
      });
    } finally {
      for (const node of nodes) await node.stop();
    }
  }
  if (rows.length) rows.push(await storeCeiling(o, manifest, mongoUrl, storePid));
  return rows;
}

/**
 * What the store server alone can do: a bare driver client, as many concurrent as the largest node run's clients,
 * makes a create's writes (the insert, and a counter `$inc` every `DEFAULT_BLOCK_SIZE` creates as a node reserves
 * its numbers) one create at a time per client, no app between.
 */
async function storeCeiling(o: EngineOptions, manifest: Manifest, mongoUrl: string, storePid: number): Promise<ScalingRow> {
  log('create scaling: the store alone (bare driver)');
  const client = new MongoClient(mongoUrl, { writeConcern: { w: 'majority' } });
  await client.connect();
  try {
    const db = client.db();
    const doc = { data: (manifest.bodies.tender as { data: unknown }).data };
    let creates = 0;
    const latencies: number[] = [];
    const create = async () => {
      const started = performance.now();
      if (creates % DEFAULT_BLOCK_SIZE === 0)
        await db
          .collection('counters')
          .findOneAndUpdate(
            { _id: 'bench-ceiling' as never },
            { $inc: { value: DEFAULT_BLOCK_SIZE } },
            { upsert: true, returnDocument: 'after' },
          );
      await db
        .collection('tenders')
        .insertOne({ _id: randomUUID() as never, rev: 1, seq: Math.random(), doc, isPublic: false, isTest: false, nextCheck: null });
      latencies.push(performance.now() - started);
      creates++;
    };
    const storeBefore = cpuSecondsOf(storePid);
    const machineBefore = machineCpuSeconds();
    const started = performance.now();
    const until = started + o.duration * 1000;
    const more = () => (o.requests ? creates < o.requests : performance.now() < until);
    await Promise.all(
      Array.from({ length: o.connections * Math.max(...o.nodes) }, async () => {
        while (more()) await create();
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      nodes: 0,
      createsPerSecond: creates / seconds,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      nodeCpu: [],
      storeCpu: ((cpuSecondsOf(storePid) - storeBefore) / seconds) * 100,
      machineCpu: ((machineCpuSeconds() - machineBefore) / seconds) * 100,
    };
  } finally {
    await client.close();
  }
}

function renderScaling(rows: ScalingRow[], o: EngineOptions): string {
  if (!rows.length) return '';
  const base = rows[0].createsPerSecond;
  const lines = [
    '',
    `## Creates by API nodes (${o.connections} connections per node, one MongoDB server)`,
    '',
    '| Nodes | creates/s | × one node | p50 / p99 ms (worst node) | node CPU, % of a core | store server CPU, % of a core | machine CPU, % of a core |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.nodes || 'none: the store alone, bare driver'} | ${us(r.createsPerSecond)} | ${(r.createsPerSecond / base).toFixed(2)} | ` +
        `${ms(r.p50)} / ${ms(r.p99)} | ${r.nodeCpu.map((c) => c.toFixed(0)).join(', ') || '–'} | ${r.storeCpu.toFixed(0)} | ` +
        `${r.machineCpu.toFixed(0)} of ${100 * cpus().length} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

export async function runEngines(o: EngineOptions): Promise<void> {
  for (const f of [o.db, `${o.db}-wal`, `${o.db}-shm`, manifestPath(o.db)]) rmSync(f, { force: true });
  log(`loading ${o.tenders} tenders`);
  const manifest = await load({
    db: o.db,
    tenders: o.tenders,
    frameworks: o.frameworks,
    restrictedShare: 0.1,
    draftShare: 0.05,
    batch: 20000,
    cacheMiB: 64,
    sample: 20000,
    progress: false,
  });
  const server = mongoServer();
  const mongoUrl = withDatabase(server.url, `bench_${Date.now()}`);
  try {
    log('copying them to MongoDB');
    await copyToMongo(o.db, mongoUrl);
    const measured: Record<'sqlite' | 'mongodb' | 'sqliteAtRate' | 'sqliteAtRateBeside', Map<string, Measure>> = {
      sqlite: new Map(),
      mongodb: new Map(),
      sqliteAtRate: new Map(),
      sqliteAtRateBeside: new Map(),
    };
    const idle: IdleCpu = { sqlite: NaN, mongodb: NaN };
    // MongoDB first: SQLite is then measured twice, as fast as it answers and paced at MongoDB's rate.
    for (const engine of ['mongodb', 'sqlite'] as const) {
      log(`${engine}:`);
      const product = await startProduct({
        db: o.db,
        runner: o.runner,
        logLevel: o.logLevel,
        storeUrl: engine === 'mongodb' ? mongoUrl : undefined,
        nodeArgs: o.cpuProf
          ? ['--cpu-prof', `--cpu-prof-dir=${join(o.out, 'profiles')}`, `--cpu-prof-name=engine-${engine}.cpuprofile`]
          : [],
      });
      try {
        const d: DriveOptions = {
          url: product.url,
          pid: product.pid,
          storePid: engine === 'mongodb' ? server.pid : undefined,
          connections: o.connections,
          duration: o.duration,
          requests: o.requests,
          warmup: o.warmup,
        };
        idle[engine] = await idleCpuUsPerSecond(product.pid);
        measured[engine] = await measure(d, manifest, o.only);
        if (engine === 'sqlite') {
          log("sqlite at MongoDB's rate:");
          measured.sqliteAtRate = await measure(d, manifest, o.only, { of: measured.mongodb, beside: false });
          log("sqlite at MongoDB's rate, beside the store server's CPU burnt:");
          measured.sqliteAtRateBeside = await measure(d, manifest, o.only, { of: measured.mongodb, beside: true });
        }
      } finally {
        await product.stop();
      }
    }
    const rows = SCENARIOS.filter((scenario) => measured.mongodb.has(scenario)).map((scenario) => ({
      scenario,
      sqlite: measured.sqlite.get(scenario)!,
      mongodb: measured.mongodb.get(scenario)!,
      sqliteAtRate: measured.sqliteAtRate.get(scenario)!,
      sqliteAtRateBeside: measured.sqliteAtRateBeside.get(scenario)!,
    }));
    const scaling = await createScaling(o, manifest, mongoUrl, server.pid);
    log('round trips per request:');
    const roundTrips = await countRoundTrips(server.url);
    const md =
      renderMarkdown(rows, idle, o, process.env.MONGODB_URL ? 'MONGODB_URL' : "the project's test server (SecantusDB)") +
      renderScaling(scaling, o) +
      `\nRound trips per request (docs/performance.md §Round trips on MongoDB):\n\n\`\`\`\n${formatRoundTrips(roundTrips)}\n\`\`\`\n`;
    writeFileSync(
      join(o.out, `${o.name}.json`),
      JSON.stringify({ date: new Date().toISOString(), options: o, rows, idleCpuUsPerSecond: idle, scaling, roundTrips }, null, 2),
    );
    writeFileSync(join(o.out, `${o.name}.md`), md);
    process.stdout.write(md);
  } finally {
    const client = new MongoClient(mongoUrl);
    await client
      .db()
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
    server.stop();
    for (const f of [o.db, `${o.db}-wal`, `${o.db}-shm`, manifestPath(o.db)]) rmSync(f, { force: true });
  }
}

import type { Cluster } from '../../cluster/launcher';
import { openLiveFeed, type LiveFeed } from '../live-feed-client';
import { aFramework, formatStamp } from './framework-body';
import { Latencies } from './latency';
import { LOCAL_TTL_MS, startLocalCluster, type LocalCluster } from './local-cluster';
import { nemesisLines, runNemeses, type Fault, type Nemesis } from './nemesis';
import { newClientStats, SessionClient, type ClientStats } from './session-client';

/**
 * The feed-completeness check (docs/platform.md §Feeds, the contract, and docs/platform.md §Live feed), after the
 * reference's feed-ordering study: writers PATCH their frameworks as fast as the nodes answer, through every node,
 * each change named by the `dateModified` it was acknowledged with (which the feed lists, and which rises with each
 * change); crawlers follow the paged feed (every other one sending each offset back rounded to 12 significant
 * digits, as the reference's Python 2 clients do) and the live stream, from random offsets, each on random nodes.
 * Every acknowledged change is checked against every crawler: it must list the object at that version or a later one.
 */
export interface FeedCheckOptions {
  /** Base URLs of the API nodes; a local cluster is started when empty. */
  targets: string[];
  writers: number;
  /** Crawlers of each kind: paged and streamed. */
  crawlers: number;
  seconds: number;
  /** Kill an API node of the local cluster a third into the run, and restart it at two thirds. */
  killNode: boolean;
  nodes: number;
  storeUrl?: string;
  /** Faults to compose on the local cluster while writers and crawlers run (scripts/consistency/nemesis.ts). */
  nemesis?: Nemesis[];
  /** The store server's process id, for the pause nemesis. */
  storePid?: number;
  progress?: (line: string) => void;
}

export interface FeedSummary {
  targets: string[];
  writers: number;
  elapsedS: number;
  /** Acknowledged changes, and PATCHes not acknowledged (refused or unanswered). */
  changes: number;
  unacknowledged: number;
  crawlers: { name: string; missed: number; reconnects: number }[];
  checks: number;
  missed: number;
  /** From a change's acknowledgement to the first time a crawler listed it (0 when it listed it first), ms. */
  delayMs: Record<'paged' | 'stream', { p50: number; p90: number; p99: number; max: number }>;
  killed: string | null;
  /** The nemeses' faults with their recovery times, and those that could not run here. */
  faults: Fault[];
  skipped: string[];
  /** Answers 500 and above other than the documented 503, to writers and crawlers. */
  serverErrors: number;
  examples: string[];
}

const API = '/api/2.5';
const OBJECTS_PER_WRITER = 2;
/** How long crawlers get after the last write to list every change: past a lease (5 s) and a heartbeat. */
const SETTLE_MS = 12_000;

/** What one crawler listed: per object, the versions it saw and when, in the order it saw them. */
class Sightings {
  readonly seen = new Map<string, [version: number, at: number][]>();
  reconnects = 0;

  constructor(readonly name: string) {}

  add(entry: { id: string; dateModified: string }): void {
    const list = this.seen.get(entry.id) ?? [];
    list.push([instant(entry.dateModified), performance.now()]);
    this.seen.set(entry.id, list);
  }

  /** When it first listed `id` at `version` or later; undefined if never. */
  firstAt(id: string, version: number): number | undefined {
    return this.seen.get(id)?.find(([seen]) => seen >= version)?.[1];
  }
}

interface Change {
  id: string;
  /** The instant of its `dateModified`. */
  version: number;
  at: number;
}

/** A `dateModified` as microseconds since the epoch (the API writes up to six decimals). */
function instant(iso: string): number {
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  return Math.floor(Date.parse(iso) / 1000) * 1e6 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A random offset before the run: a position, the same rounded to 12 significant digits, or an ISO date-time. */
function randomOffset(from: number, to: number): string {
  const seconds = (from + Math.random() * (to - from)) / 1000;
  const form = Math.floor(Math.random() * 3);
  if (form === 0) return seconds.toFixed(6);
  if (form === 1) return seconds.toPrecision(12);
  return encodeURIComponent(new Date(seconds * 1000).toISOString());
}

export async function runFeedCheck(options: FeedCheckOptions): Promise<FeedSummary> {
  if (options.nemesis?.length && options.targets.length)
    throw new Error('--nemesis drives a local cluster it starts itself: drop --targets');
  const own =
    options.targets.length === 0
      ? await startLocalCluster({ nodes: options.nodes, storeUrl: options.storeUrl, nemesis: options.nemesis })
      : null;
  try {
    return await check(own ? own.targets : options.targets, own, options);
  } finally {
    await own?.stop();
  }
}

async function check(targets: string[], own: LocalCluster | null, options: FeedCheckOptions): Promise<FeedSummary> {
  const log = options.progress ?? (() => {});
  const cluster: Cluster | null = own?.cluster ?? null;
  // Each node through its target (its client link under partitions), while it runs.
  const alive = () => (cluster ? targets.filter((_, i) => cluster.api[i].running) : targets);
  const stats = newClientStats();

  const before = Date.now() - 2000;
  const owned: { id: string; token: string; writes: number; lastMs: number; http: SessionClient }[] = [];
  for (let w = 0; w < options.writers; w++) {
    const http = new SessionClient(alive, stats);
    for (let k = 0; k < OBJECTS_PER_WRITER; k++) {
      const created = await http.request('POST', `${API}/frameworks`, { data: aFramework('feed completeness') });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const object = { id: created.body.data.id as string, token: created.body.access.token as string, writes: 0, lastMs: 0, http };
      const activated = await http.request('PATCH', `${API}/frameworks/${object.id}?acc_token=${object.token}`, {
        data: { status: 'active' },
      });
      if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${JSON.stringify(activated.body)}`);
      owned.push(object);
    }
  }
  const startedAt = Date.now();
  log(`${owned.length} frameworks of ${options.writers} writers; crawlers start from random offsets before the run`);

  let stopCrawling = false;
  const paged = Array.from({ length: options.crawlers }, (_, i) => new Sightings(`paged ${i}${i % 2 ? ' (12 digits)' : ''}`));
  const streamed = Array.from({ length: options.crawlers }, (_, i) => new Sightings(`stream ${i}`));
  const crawling = [
    ...paged.map((s, i) => crawlPages(s, randomOffset(before, startedAt), i % 2 === 1, alive, stats, () => stopCrawling)),
    ...streamed.map((s) => crawlStream(s, randomOffset(before, startedAt), alive, () => stopCrawling)),
  ];

  const changes: Change[] = [];
  let unacknowledged = 0;
  const deadline = startedAt + options.seconds * 1000;
  // The writers keep going until the nemeses have healed, however long they take.
  let faulting = !!(options.nemesis?.length && cluster);
  const writers = Array.from({ length: options.writers }, async (_, w) => {
    const mine = owned.slice(w * OBJECTS_PER_WRITER, (w + 1) * OBJECTS_PER_WRITER);
    for (let n = 0; faulting || Date.now() < deadline; n++) {
      const object = mine[n % mine.length];
      // Each change of an object in a later millisecond than the last, so that its dateModified names it alone.
      while (Date.now() <= object.lastMs) await sleep(1);
      const path = `${API}/frameworks/${object.id}?acc_token=${object.token}`;
      object.writes += 1;
      const reply = await object.http
        .request('PATCH', path, { data: { description: formatStamp({ version: object.writes }) } })
        .catch(() => null);
      object.lastMs = Date.now();
      if (reply?.status === 200) {
        changes.push({ id: object.id, version: instant(reply.body.data.dateModified), at: performance.now() });
      } else {
        unacknowledged++; // unanswered, it may still have committed: a later acknowledged change covers it
      }
    }
  });
  const writing = Promise.all(writers).then(() => (Date.now() - startedAt) / 1000);
  let killed: string | null = null;
  if (options.killNode && cluster) {
    const victim = cluster.api[cluster.api.length - 1];
    await sleep(Math.max(0, startedAt + (deadline - startedAt) / 3 - Date.now()));
    await cluster.kill(victim.id);
    killed = victim.id;
    log(`killed ${victim.id} at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    await sleep(Math.max(0, startedAt + ((deadline - startedAt) * 2) / 3 - Date.now()));
    await cluster.restart(victim.id);
    log(`restarted ${victim.id} at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  }
  const faults =
    options.nemesis?.length && own
      ? await runNemeses(own.cluster, options.nemesis, {
          started: startedAt,
          deadline,
          ttlMs: LOCAL_TTL_MS,
          storePid: options.storePid,
          targets,
          routes: own.routes,
          clocks: own.clocks,
          log,
        })
      : [];
  faulting = false;
  const elapsedS = await writing;
  log(`${changes.length} changes acknowledged; waiting for the crawlers to list them`);

  const crawlers = [...paged, ...streamed];
  const complete = () => changes.every((c) => crawlers.every((s) => s.firstAt(c.id, c.version) !== undefined));
  const settleBy = Date.now() + SETTLE_MS;
  while (!complete() && Date.now() < settleBy) await sleep(200);
  stopCrawling = true;
  await Promise.all(crawling);

  const examples: string[] = [];
  const delays = { paged: new Latencies(), stream: new Latencies() };
  const maxima = { paged: 0, stream: 0 };
  const report = crawlers.map((s) => {
    const kind = s.name.startsWith('paged') ? 'paged' : 'stream';
    let missed = 0;
    for (const change of changes) {
      const at = s.firstAt(change.id, change.version);
      if (at === undefined) {
        missed++;
        if (examples.length < 10) examples.push(`${s.name} never listed ${change.id} at ${change.version} µs or later`);
        continue;
      }
      const delay = Math.max(0, at - change.at);
      delays[kind].add(delay);
      maxima[kind] = Math.max(maxima[kind], delay);
    }
    return { name: s.name, missed, reconnects: s.reconnects };
  });
  const percentiles = (kind: 'paged' | 'stream') => ({
    p50: delays[kind].percentile(50),
    p90: delays[kind].percentile(90),
    p99: delays[kind].percentile(99),
    max: maxima[kind],
  });
  return {
    targets,
    writers: options.writers,
    elapsedS,
    changes: changes.length,
    unacknowledged,
    crawlers: report,
    checks: changes.length * crawlers.length,
    missed: report.reduce((sum, c) => sum + c.missed, 0),
    delayMs: { paged: percentiles('paged'), stream: percentiles('stream') },
    killed,
    faults,
    skipped: own?.skipped ?? [],
    serverErrors: stats.serverErrors,
    examples,
  };
}

/** Follows `next_page` from `offset`, each page from a random live node; an empty page is asked again shortly. */
async function crawlPages(seen: Sightings, offset: string, round: boolean, alive: () => string[], stats: ClientStats, stop: () => boolean) {
  let next = offset;
  while (!stop()) {
    const reply = await fetch(`${pick(alive())}${API}/frameworks?limit=100&offset=${next}`, {
      signal: AbortSignal.timeout(5000),
    }).catch(() => null);
    if (reply && reply.status >= 500 && reply.status !== 503) stats.serverErrors++;
    if (!reply?.ok) {
      seen.reconnects++;
      await sleep(50);
      continue;
    }
    const page = (await reply.json()) as { data: { id: string; dateModified: string }[]; next_page: { offset: number | string } };
    for (const entry of page.data) seen.add(entry);
    const given = page.next_page.offset;
    next = round && typeof given === 'number' ? given.toPrecision(12) : encodeURIComponent(String(given));
    if (!page.data.length) await sleep(50);
  }
}

/** Reads the live feed from `offset` on a random live node; when it ends, reconnects elsewhere with its last id. */
async function crawlStream(seen: Sightings, offset: string, alive: () => string[], stop: () => boolean) {
  let lastId: string | null = null;
  while (!stop()) {
    let feed: LiveFeed;
    try {
      feed = await openLiveFeed(`${pick(alive())}${API}/frameworks?offset=${offset}`, lastId ? { 'last-event-id': lastId } : {});
    } catch {
      seen.reconnects++;
      await sleep(50);
      continue;
    }
    if (feed.status !== 200) {
      seen.reconnects++;
      await sleep(50);
      continue;
    }
    while (!stop() && !feed.ended) {
      const event = await feed.next(200);
      if (event?.data) {
        seen.add(JSON.parse(event.data));
        lastId = event.id;
      }
    }
    feed.close();
    if (!stop()) seen.reconnects++;
  }
}

const ms = (v: number) => `${v.toFixed(0)} ms`;

/** No change missed by any crawler, no undocumented 5xx, the cluster recovered after each heal. */
const feedPassed = (s: FeedSummary) =>
  s.missed === 0 && s.changes > 0 && s.serverErrors === 0 && s.faults.every((f) => f.recoveryMs !== null);

/** The report; its last line is PASS or FAIL (feedPassed). */
export function formatFeedSummary(s: FeedSummary): string {
  const delay = (kind: 'paged' | 'stream') => {
    const d = s.delayMs[kind];
    return `${kind.padEnd(6)} p50 ${ms(d.p50)} · p90 ${ms(d.p90)} · p99 ${ms(d.p99)} · max ${ms(d.max)}`;
  };
  const half = s.crawlers.length / 2;
  const column = (field: 'missed' | 'reconnects') =>
    `${s.crawlers
      .slice(0, half)
      .map((c) => c[field])
      .join(' ')} | ${s.crawlers
      .slice(half)
      .map((c) => c[field])
      .join(' ')}`;
  const lines = [
    `feed completeness: ${s.writers} writers for ${s.elapsedS.toFixed(1)} s, targets ${s.targets.join(' ')}`,
    `changes      ${s.changes} acknowledged (${(s.changes / s.elapsedS).toFixed(0)} PATCH/s), ${s.unacknowledged} not acknowledged`,
    `crawlers     ${half} paged (every other one rounding offsets to 12 digits), ${half} live: missed ${column('missed')}; reconnects ${column('reconnects')}`,
    `checks       ${s.checks} (every change × every crawler), ${s.missed} missed`,
    `delay        ${delay('paged')}`,
    `             ${delay('stream')}`,
  ];
  if (s.killed) lines.push(`kill-node    ${s.killed} killed a third into the run, restarted at two thirds`);
  lines.push(`5xx          ${s.serverErrors} other than the documented 503`);
  lines.push(...nemesisLines(s.faults, s.skipped));
  for (const example of s.examples) lines.push(`  ${example}`);
  lines.push(feedPassed(s) ? 'PASS' : 'FAIL');
  return lines.join('\n');
}

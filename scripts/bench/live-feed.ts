/**
 * `npm run bench:live`: the live feed's figures (docs/platform.md §Live feed). Nodes in their own processes on one
 * store; a writer PATCHes one framework through the first node, one commit at a time, and a stream on the last node
 * waits for each change: the delay from the writer's acknowledgement to the event, with one stream open and with
 * `--streams` open; then the last node's CPU while those streams stay idle, beside its CPU with none. Bounded and on
 * loopback; prints numbers and asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../cli';
import { aFramework } from '../consistency/framework-body';
import { openLiveFeed, type LiveFeed } from '../live-feed-client';
import { cpuSecondsOf, startProduct, type Running } from './processes';

const USAGE = `
usage: npm run bench:live -- [options]

Delivery delay of the live feed after a commit is acknowledged (p50/p99), and the idle CPU of a node holding many
open streams.

  --commits N         commits measured with one stream, and again with --streams open (default 200)
  --streams N         streams held open on the last node (default 500)
  --idle-seconds S    how long the idle CPU is measured, without and with the streams (default 10)
  --nodes N           nodes on one store: writes go through the first, streams are read from the last (default 1)
  --store-url URL     a mongodb:// store (a fresh database on it) instead of a temporary SQLite file
  --runner dist|tsx   run the product from dist/ or with tsx (default tsx)
`;

const API = '/api/2.5';
const FEEDS = ['frameworks', 'tenders', 'plans', 'contracts', 'agreements', 'submissions', 'qualifications'];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${API}${path}`, {
    method,
    headers: { authorization: 'Bearer broker', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Arrival times of the probe stream's events for one object, in order, taken as they come. */
function arrivals(feed: LiveFeed, id: string) {
  const times: number[] = [];
  const waiting: (() => void)[] = [];
  void (async () => {
    while (!feed.ended) {
      const event = await feed.next(60_000);
      if (event?.data && JSON.parse(event.data).id === id) {
        times.push(performance.now());
        waiting.splice(0).forEach((wake) => wake());
      }
    }
  })();
  return {
    async take(timeoutMs: number): Promise<number> {
      const deadline = performance.now() + timeoutMs;
      while (!times.length) {
        if (performance.now() > deadline) throw new Error('an acknowledged change did not arrive on the stream');
        await new Promise<void>((wake) => {
          waiting.push(wake);
          setTimeout(wake, 100);
        });
      }
      return times.shift() as number;
    },
  };
}

/** `commits` PATCHes one at a time; for each, the ms from its acknowledgement to its event (0 if the event came first). */
async function delays(writeUrl: string, framework: { id: string; token: string }, probe: ReturnType<typeof arrivals>, commits: number) {
  const measured: number[] = [];
  for (let i = 0; i < commits; i++) {
    await call(writeUrl, 'PATCH', `/frameworks/${framework.id}?acc_token=${framework.token}`, { data: { description: `bench ${i}` } });
    const acknowledged = performance.now();
    measured.push(Math.max(0, (await probe.take(10_000)) - acknowledged));
  }
  return measured.sort((a, b) => a - b);
}

async function idleCpu(node: Running, seconds: number) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = cpuSecondsOf(node.pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return cpuSecondsOf(node.pid) - before;
}

async function main() {
  const { values } = parseCli(USAGE, {
    commits: { type: 'string', default: '200' },
    streams: { type: 'string', default: '500' },
    'idle-seconds': { type: 'string', default: '10' },
    nodes: { type: 'string', default: '1' },
    'store-url': { type: 'string' },
    runner: { type: 'string', default: 'tsx' },
  });
  const commits = Number(values.commits);
  const streams = Number(values.streams);
  const idleSeconds = Number(values['idle-seconds']);
  const nodeCount = Number(values.nodes);
  const dir = mkdtempSync(join(tmpdir(), 'registry-bench-live-'));
  const storeUrl = values['store-url']?.replace(/^(mongodb:\/\/[^/?]*)(\/[^?]*)?/, `$1/bench_live_${process.pid}`);
  const nodes: Running[] = [];
  const feeds: LiveFeed[] = [];
  try {
    for (let i = 0; i < nodeCount; i++) {
      nodes.push(
        await startProduct({
          db: join(dir, 'registry.db'),
          runner: values.runner === 'dist' ? 'dist' : 'tsx',
          logLevel: 'warn',
          storeUrl,
          env: { NODE_ID: `bench-live-${i}`, FEED_STREAMS_PER_ADDRESS: '0' },
        }),
      );
    }
    const writer = nodes[0];
    const reader = nodes[nodes.length - 1];
    const created = await call(writer.url, 'POST', '/frameworks', { data: aFramework('live feed bench') });
    const framework = { id: created.data.id, token: created.access.token };
    await call(writer.url, 'PATCH', `/frameworks/${framework.id}?acc_token=${framework.token}`, { data: { status: 'active' } });
    const cpuNone = await idleCpu(reader, idleSeconds);

    // From the framework's own activation on, so the probe's first event is that commit's.
    const head = (await fetch(`${reader.url}${API}/frameworks?descending=1&limit=1`).then((res) => res.json())) as {
      next_page: { offset: number };
    };
    const probeFeed = await openLiveFeed(`${reader.url}${API}/frameworks?offset=${head.next_page.offset}`);
    feeds.push(probeFeed);
    const probe = arrivals(probeFeed, framework.id);
    await probe.take(10_000);
    const one = await delays(writer.url, framework, probe, commits);

    while (feeds.length < streams) {
      const feed = await openLiveFeed(`${reader.url}${API}/${FEEDS[feeds.length % FEEDS.length]}?offset=${head.next_page.offset}`);
      if (feed.status !== 200) throw new Error(`stream ${feeds.length}: ${feed.status} ${JSON.stringify(feed.body)}`);
      feeds.push(feed);
    }
    const many = await delays(writer.url, framework, probe, commits);
    const cpuStreams = await idleCpu(reader, idleSeconds);

    const row = (name: string, sorted: number[]) =>
      `${name.padEnd(34)} p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms   max ${sorted[sorted.length - 1].toFixed(1).padStart(7)} ms`;
    const engine = storeUrl ? 'mongodb' : 'sqlite';
    console.log(`live feed, ${engine}, ${nodeCount} node(s): writes through node 1, streams on node ${nodeCount}; ${commits} commits each`);
    console.log(row('delivery after ack, 1 stream', one));
    console.log(row(`delivery after ack, ${streams} streams`, many));
    const pct = (cpu: number) => `${cpu.toFixed(2)} CPU s in ${idleSeconds} s (${((100 * cpu) / idleSeconds).toFixed(2)} % of a core)`;
    console.log(`idle node, no streams:        ${pct(cpuNone)}`);
    console.log(`idle node, ${String(streams).padEnd(4)} open streams: ${pct(cpuStreams)}`);
  } finally {
    for (const feed of feeds) feed.close();
    for (const node of nodes) await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

/**
 * The worst OCDS reads (docs/ocds.md §Records, §Feeds): a record package of a tender of 100 lots PATCHed many times,
 * and OCDS and plain feed pages over many such tenders, compact and pretty. The node runs in this process, so
 * `monitorEventLoopDelay` sees its loop: for each read, the total time and the longest the loop was held
 * (docs/platform.md §Limits: target 100 ms) and the 99th percentile, by the wall clock and in CPU time (`cpuHolds`),
 * beside the same figures for the ordinary read of the tender as a baseline of the same run, and the machine's load
 * average. Bounded, on loopback, SQLite unless `--store-url`; prints numbers and asserts nothing.
 *
 *   npx tsx scripts/bench/ocds-record.ts [--revisions N] [--tenders N] [--lots N]
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseCli } from '../cli';
import { startTestServer, type TestServer } from '../../test/fixtures/server';
import { newId } from '../../src/domain/core/ids';
import { aLot, aTender, activateDraft, anItem, belowThresholdConfig, createTender } from '../../test/fixtures/tenders';

const USAGE = `usage: npx tsx scripts/bench/ocds-record.ts [options]

  --revisions N   title PATCHes of the record's tender (default 100)
  --tenders N     tenders of --lots lots listed by the OCDS feed page (default 30)
  --lots N        lots of every tender (default 100)
  --runs N        reads of each path; the worst block and p99 of them, the median total (default 3)
  --record-limit B  the node's OCDS_RECORD_LIMIT, bytes (default: the node's own default)
  --store-url URL a mongodb:// store (a fresh database on it) instead of a temporary SQLite file`;
const { values } = parseCli(USAGE, {
  revisions: { type: 'string', default: '100' },
  tenders: { type: 'string', default: '30' },
  lots: { type: 'string', default: '100' },
  runs: { type: 'string', default: '3' },
  'record-limit': { type: 'string' },
  'store-url': { type: 'string' },
});
const revisions = Number(values.revisions);
const tenders = Number(values.tenders);
const lots = Number(values.lots);
const runs = Number(values.runs);

/**
 * The process's CPU time between turns of the loop, every turn of a 1 ms timer, ms: how long the loop was held in
 * work alone. On a loaded machine the wall-clock delay also holds the time the process waited for a core, which no
 * code of the node decides; this does not (it counts the process's other threads too: GC helpers, the thread pool).
 */
function cpuHolds() {
  const holds: number[] = [];
  let last = process.cpuUsage();
  const timer = setInterval(() => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    holds.push((used.user + used.system) / 1000);
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      const sorted = holds.sort((a, b) => a - b);
      return { max: sorted.at(-1) ?? 0, p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0 };
    },
  };
}

/**
 * One GET, its body counted as it comes (never joined: the client shares the node's loop): the status, size, total
 * ms, the longest and the 99th percentile of the loop's delays meanwhile (wall clock), and of its CPU holds, ms.
 */
async function measure(server: TestServer, path: string) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const cpu = cpuHolds();
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`);
  let bytes = 0;
  for await (const chunk of res.body!) bytes += chunk.byteLength;
  const ms = performance.now() - started;
  histogram.disable();
  const held = cpu.stop();
  return {
    status: res.status,
    MB: +(bytes / 1e6).toFixed(1),
    totalMs: Math.round(ms),
    maxBlockMs: Math.round(histogram.max / 1e6),
    p99Ms: Math.round(histogram.percentile(99) / 1e6),
    cpuBlockMs: Math.round(held.max),
    cpuP99Ms: Math.round(held.p99),
  };
}

type Row = Awaited<ReturnType<typeof measure>>;

/** The worst of `runs` reads of `path`: the longest block and p99 of any, the median total. */
async function worst(server: TestServer, path: string): Promise<Row> {
  const rows: Row[] = [];
  for (let i = 0; i < runs; i++) rows.push(await measure(server, path));
  const totals = rows.map((row) => row.totalMs).sort((a, b) => a - b);
  return {
    ...rows[0],
    totalMs: totals[Math.floor(totals.length / 2)],
    maxBlockMs: Math.max(...rows.map((row) => row.maxBlockMs)),
    p99Ms: Math.max(...rows.map((row) => row.p99Ms)),
    cpuBlockMs: Math.max(...rows.map((row) => row.cpuBlockMs)),
    cpuP99Ms: Math.max(...rows.map((row) => row.cpuP99Ms)),
  };
}

/** A public tender of `lots` lots, one item each. */
async function lotHeavyTender(server: TestServer) {
  const ids = Array.from({ length: lots }, () => newId());
  const data = aTender({
    lots: ids.map((id, i) => aLot({ id, title: `Лот ${i + 1}` })),
    items: ids.map((id) => anItem({ relatedLot: id })),
    value: { amount: 500 * lots, currency: 'UAH' },
    minimalStep: { amount: 15 * lots, currency: 'UAH' },
  });
  const tender = await createTender(server, data, belowThresholdConfig());
  await activateDraft(server, tender, 'active.enquiries');
  return tender;
}

async function main() {
  // The test server takes a fresh database on MONGODB_URL when it is set.
  if (values['store-url']) process.env.MONGODB_URL = values['store-url'];
  const limit = values['record-limit'];
  const server = await startTestServer({ env: limit ? { OCDS_RECORD_LIMIT: limit } : {} });
  try {
    const made = [];
    for (let i = 0; i < tenders; i++) made.push(await lotHeavyTender(server));
    const tender = made[0];
    for (let i = 0; i < revisions; i++) {
      server.clock.set(new Date(server.clock.now().getTime() + 1000));
      const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
        key: 'broker',
        token: tender.token,
        body: { data: { title: `Назва ${i}` } },
      });
      if (res.status !== 200) throw new Error(`PATCH: ${res.status} ${res.text}`);
    }
    const path = `/api/2.5/tenders/${tender.id}`;
    const page = (query: string) => `/api/2.5/tenders?limit=1000${query}`;
    const rows: Record<string, Row> = {
      'tender (baseline)': await worst(server, path),
      [`record: ${lots} lots × ${revisions + 1} versions`]: await worst(server, `${path}?opt_schema=ocds-record`),
      [`OCDS feed page: ${tenders} tenders × ${lots} lots`]: await worst(server, page('&opt_schema=ocds')),
      'OCDS feed page, opt_pretty': await worst(server, page('&opt_schema=ocds&opt_pretty=1')),
      'feed page, opt_fields=lots': await worst(server, page('&opt_fields=lots')),
      'feed page, opt_fields=lots, opt_pretty': await worst(server, page('&opt_fields=lots&opt_pretty=1')),
    };
    const base = rows['tender (baseline)'];
    const ratios = Object.fromEntries(
      Object.entries(rows).map(([name, row]) => [
        name,
        {
          ...row,
          blockRatio: +(row.maxBlockMs / Math.max(1, base.maxBlockMs)).toFixed(1),
          cpuBlockRatio: +(row.cpuBlockMs / Math.max(1, base.cpuBlockMs)).toFixed(1),
        },
      ]),
    );
    console.log(
      `load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}; ${runs} runs of each read; target: 100 ms (docs/platform.md §Limits)`,
    );
    console.table(ratios);
  } finally {
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

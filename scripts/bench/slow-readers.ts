/**
 * `npm run bench:slow-readers`: what clients that read slowly or not at all cost a node's memory
 * (docs/platform.md §Limits, docs/platform.md §Live feed). A store of lot-heavy tenders (entries near the body limit with
 * `opt_fields=lots`) is served by one node in its own process; live-feed streams and `limit=1000` pages are asked
 * over loopback by clients that never read; the node's resident memory is sampled before and while they hang.
 * Bounded in counts and seconds; prints numbers and asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../cli';
import { openStore } from '../../src/store/open-store';
import { TICK_MICROS, fromMicros } from '../../src/store/feed-position';
import type { StoredRecord } from '../../src/store/port';
import { startProduct } from './processes';

const USAGE = `
usage: npm run bench:slow-readers -- [options]

Resident memory of a node while clients that read nothing hold live-feed streams and big feed pages open.

  --tenders N       lot-heavy tenders in the store (default 110)
  --lot-kb K        size of each of a tender's 100 lots, KiB (default 9: a 0.93 MB entry)
  --streams N       live-feed streams that read nothing (default 8)
  --pages N         limit=1000 pages that read nothing (default 8)
  --seconds S       how long they hang, sampled every 250 ms (default 10)
  --store-url URL   a mongodb:// store (a fresh database on it) instead of a temporary SQLite file
  --runner dist|tsx run the product from dist/ or with tsx (default tsx)
`;

const LOTS = 100;

/** Tenders of `LOTS` lots of `lotBytes` each, a few to a tick, an hour in the past. */
function tenders(count: number, lotBytes: number): StoredRecord[] {
  const start = Math.floor((Date.now() / 1000 - 3600) * 100) * TICK_MICROS;
  return Array.from({ length: count }, (_, i) => {
    const seq = fromMicros(start + Math.floor(i / 4) * TICK_MICROS + 1 + (i % 4));
    const id = `5100${String(i).padStart(28, '0')}`;
    const lots = Array.from({ length: LOTS }, (_, l) => ({
      id: `${String(l).padStart(32, '0')}`,
      title: `lot ${l}`,
      description: 'x'.repeat(lotBytes),
      status: 'active',
      value: { amount: 1000, currency: 'UAH', valueAddedTaxIncluded: true },
    }));
    const data = { id, dateModified: new Date(seq * 1000).toISOString(), status: 'active.tendering', lots };
    return { kind: 'tenders', id, rev: 1, seq, doc: { data }, index: { isPublic: true, isTest: false, nextCheck: null }, revisions: [] };
  });
}

/** A client that sends its request and never reads what comes back. */
function idleClient(url: string, path: string, accept: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: ${accept}\r\n\r\n`);
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/** A whole number given for an option, or its default; anything else stops with the usage (exit 2). */
function counted(raw: string | undefined, fallback: number, name: string): number {
  const value = raw === undefined ? fallback : Number(raw);
  if (Number.isInteger(value) && value >= 0) return value;
  process.stderr.write(`--${name}: a whole number, not ${raw}\n\n${USAGE.trim()}\n`);
  process.exit(2);
}

async function main() {
  const { values: options } = parseCli(USAGE, {
    tenders: { type: 'string' },
    'lot-kb': { type: 'string' },
    streams: { type: 'string' },
    pages: { type: 'string' },
    seconds: { type: 'string' },
    'store-url': { type: 'string' },
    runner: { type: 'string' },
  });
  const count = counted(options.tenders, 110, 'tenders');
  const lotBytes = counted(options['lot-kb'], 9, 'lot-kb') * 1024;
  const streams = counted(options.streams, 8, 'streams');
  const pages = counted(options.pages, 8, 'pages');
  const seconds = counted(options.seconds, 10, 'seconds');
  const dir = mkdtempSync(join(tmpdir(), 'registry-slow-readers-'));
  const db = join(dir, 'registry.db');
  const storeUrl = options['store-url'] ? options['store-url'].replace(/\/(\?|$)/, `/slow_readers_${process.pid}$1`) : `sqlite:${db}`;
  const store = await openStore(storeUrl);
  const records = tenders(count, lotBytes);
  for (let i = 0; i < records.length; i += 10) await store.transfer.importRecords(records.slice(i, i + 10));
  await store.close();
  const entryMB = JSON.stringify({ lots: records[0].doc.data.lots }).length / 1e6;

  const node = await startProduct({
    db,
    storeUrl: storeUrl.startsWith('mongodb') ? storeUrl : undefined,
    runner: options.runner === 'dist' ? 'dist' : 'tsx',
    logLevel: 'warn',
  });
  const clients: Socket[] = [];
  try {
    // One page read first, as the node's first crawler would: the node is warm before it is measured.
    await (await fetch(`${node.url}/api/2.5/tenders?limit=2&opt_fields=lots`)).arrayBuffer();
    const idle = node.memory().rssMB;
    for (let i = 0; i < streams; i++) clients.push(idleClient(node.url, '/api/2.5/tenders?opt_fields=lots', 'text/event-stream'));
    for (let i = 0; i < pages; i++) clients.push(idleClient(node.url, '/api/2.5/tenders?limit=1000&opt_fields=lots', 'application/json'));
    let most = idle;
    for (let t = 0; t < seconds * 4; t++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      most = Math.max(most, node.memory().rssMB);
    }
    const last = node.memory().rssMB;
    console.log(
      JSON.stringify({
        engine: storeUrl.startsWith('mongodb') ? 'mongodb' : 'sqlite',
        tenders: count,
        entryMB: Number(entryMB.toFixed(2)),
        streams,
        pages,
        seconds,
        rssMB: { idle: Math.round(idle), most: Math.round(most), last: Math.round(last), grew: Math.round(most - idle) },
      }),
    );
  } finally {
    clients.forEach((socket) => socket.destroy());
    await node.stop();
    if (storeUrl.startsWith('mongodb')) {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(storeUrl);
      await client.db().dropDatabase();
      await client.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * What one request asks of the MongoDB store, counted with the driver's command monitoring
 * (docs/performance.md §Round trips on MongoDB): the commands sent, and the round trips, that is the commands sent
 * while none was in flight (commands sent together wait as one). A count no machine can blur, unlike a time on the test server.
 * Each request runs RUNS times and the fewest is kept. The node's feed floors heartbeat (every 200 ms, on its own
 * timer) is left out by its commands' comment.
 */
import { HEARTBEAT_COMMENT } from '../../src/store/mongo/feed-floors';
import type { StoreCommand } from '../../src/store/mongo/mongo-store';
import { aBudget, aPlan } from '../../test/fixtures/plans';
import { freshMongoDatabase, startTestServer, type Reply, type TestServer } from '../../test/fixtures/server';
import { aBid, runChronograph, tenderInTendering } from '../../test/fixtures/tenders';

const API = '/api/2.5';
const RUNS = 5;

export interface RoundTripRow {
  request: string;
  roundTrips: number;
  commands: number;
  /** The commands of the run counted, in the order sent. */
  names: string[];
}

/** The most each request may ask (the targets of docs/performance.md §Round trips on MongoDB). */
export const ROUND_TRIP_TARGETS: Record<string, number> = {
  'GET object (kept)': 0,
  'GET object (not kept)': 1,
  'feed page (warm)': 2,
  'POST create': 1,
  'PATCH owner': 1,
  'POST bid': 1,
  'PATCH chronograph': 1,
};

/** The commands sent since the last reset, and the round trips: those sent while none of them was in flight. */
class Counter {
  private readonly inFlight = new Set<number>();
  names: string[] = [];
  roundTrips = 0;
  see(event: StoreCommand) {
    if (event.comment === HEARTBEAT_COMMENT) return; // the node's own timer, no request's
    if (event.phase === 'answered') {
      this.inFlight.delete(event.id);
      return;
    }
    if (this.inFlight.size === 0) this.roundTrips++;
    this.inFlight.add(event.id);
    this.names.push(event.name);
  }
  reset() {
    this.inFlight.clear();
    this.names = [];
    this.roundTrips = 0;
  }
}

/**
 * A node on a fresh database of `mongoUrl`, each kind of request made RUNS times and counted; the objects it reads
 * first were written by a second node, so its first read of each is one it keeps nothing of.
 */
export async function countRoundTrips(mongoUrl: string): Promise<RoundTripRow[]> {
  const counter = new Counter();
  const storeUrl = freshMongoDatabase(mongoUrl);
  const server = await startTestServer({ storeUrl, onStoreCommand: (event) => counter.see(event) });
  const other = await startTestServer({ storeUrl });
  try {
    return await countOn(server, other, counter);
  } finally {
    await Promise.all([server.close(), other.close()]);
  }
}

async function countOn(server: TestServer, other: TestServer, counter: Counter): Promise<RoundTripRow[]> {
  const rows: RoundTripRow[] = [];
  const measure = async (name: string, call: (run: number) => Promise<Reply>) => {
    let best: RoundTripRow | undefined;
    for (let run = 0; run < RUNS; run++) {
      counter.reset();
      const reply = await call(run);
      if (reply.status >= 300) throw new Error(`${name}: ${reply.status} ${reply.text.slice(0, 200)}`);
      const row = { request: name, roundTrips: counter.roundTrips, commands: counter.names.length, names: [...counter.names] };
      if (!best || row.commands < best.commands) best = row;
    }
    rows.push(best!);
  };
  const plans: { id: string; token: string }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const created = await other.request('POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } });
    plans.push({ id: created.body.data.id as string, token: created.body.access.token as string });
  }
  await measure('GET object (not kept)', (run) => server.request('GET', `${API}/plans/${plans[run].id}`));
  // Each kept read right after its object is vouched for: what it costs once the watch has caught up.
  await measure('GET object (kept)', async (run) => {
    await vouched(server, counter, `${API}/plans/${plans[run].id}`);
    counter.reset();
    return server.request('GET', `${API}/plans/${plans[run].id}`);
  });
  // A page that lists nothing costs one read: it is measured once it lists the plans, within the feed delay
  // (docs/mongodb.md §Feed ordering on MongoDB), and the reads that waited for that warmed it.
  await listedWithin(server, `${API}/plans?limit=5`, 5);
  await measure('feed page (warm)', async () => {
    const reply = await server.request('GET', `${API}/plans?limit=5`);
    if ((reply.body.data as unknown[]).length !== 5)
      throw new Error(`feed page (warm): listed ${(reply.body.data as unknown[]).length} of 5`);
    return reply;
  });
  await measure('POST create', () => server.request('POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } }));
  // The read before the write is of a kept document: measured once the watch vouches for it again, as a kept GET
  // is (a loaded test server can break the change stream, and its reopening voids every earlier confirmation).
  await measure('PATCH owner', async (run) => {
    await vouched(server, counter, `${API}/plans/${plans[run].id}`);
    counter.reset();
    return server.request('PATCH', `${API}/plans/${plans[run].id}`, {
      key: 'broker',
      token: plans[run].token,
      body: { data: { budget: aBudget({ description: `run ${run}` }) } },
    });
  });
  const tender = await tenderInTendering(server);
  await measure('POST bid', (run) =>
    server.request('POST', `${API}/tenders/${tender.id}/bids`, { key: 'broker1', body: { data: aBid(tender, 450 - run, 1) } }),
  );
  await runChronograph(server, tender.id);
  await measure('PATCH chronograph', () =>
    server.request('PATCH', `${API}/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } }),
  );
  return rows;
}

/**
 * Waits (at most 10 s) until the node's change watch vouches for the object at `path`, which it has read: the watch
 * learns it is current from the stream's next batch, which a loaded machine may deliver a second or more later.
 */
async function vouched(server: TestServer, counter: Counter, path: string): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    counter.reset();
    await server.request('GET', path);
    if (counter.names.length === 0) return;
  }
}

/** Reads `path` until its page lists `count` entries; the bench's own wait, bounded like `vouched`. */
async function listedWithin(server: TestServer, path: string, count: number): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if ((await server.request('GET', path)).body.data.length >= count) return;
  }
}

/** The rows as a table, with the target of each. */
export function formatRoundTrips(rows: RoundTripRow[]): string {
  const lines = rows.map(
    (r) =>
      `${r.request.padEnd(24)} ${String(r.roundTrips).padStart(11)} ${String(r.commands).padStart(8)} ${String(ROUND_TRIP_TARGETS[r.request]).padStart(6)}  ${r.names.join(', ')}`,
  );
  return [`${'request'.padEnd(24)} round trips commands target  commands sent`, ...lines].join('\n');
}

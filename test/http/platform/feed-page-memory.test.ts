/**
 * What one feed page holds (docs/platform.md §Limits: Feed pages): its body is read from the store a part of about
 * `PAGE_READ_BYTES` at a time and sent as the client takes it, so a client that reads nothing leaves the node
 * holding one part, not the page. Counted in entries read from the store. Engine as the test server runs.
 */
import t from 'tap';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { PAGE_READ_BYTES } from '../../../src/http/feed';
import { TICK_MICROS, fromMicros } from '../../../src/store/feed-position';
import type { Store, StoredRecord } from '../../../src/store/port';

const ENTRIES = 300;
const LOT_BYTES = 128 * 1024;
/** Entries the store handed to feed pages, and in how many reads. */
const read = { entries: 0, calls: 0 };

/** Counts what feed reads return. */
function counting(store: Store): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'session') return Reflect.get(target, name, receiver);
      return (...args: Parameters<Store['session']>) => {
        const session = target.session(...args);
        return new Proxy(session, {
          get(s, member, r) {
            const value = Reflect.get(s, member, r);
            if (member !== 'feed' && member !== 'feedListing') return typeof value === 'function' ? value.bind(s) : value;
            return async (query: never) => {
              const page = await (value as (q: never) => Promise<unknown[]>).call(s, query);
              read.entries += page.length;
              read.calls++;
              return page;
            };
          },
        });
      };
    },
  });
}

let server: TestServer;
const ids: string[] = [];
/** Small plans, fifty a tick, as a burst of creates leaves them. */
const planIds: string[] = [];
const PLANS_PER_TICK = 50;
t.before(async () => {
  server = await startTestServer({ wrapStore: counting });
  const start = Math.floor((Math.min(server.clock.now().getTime(), Date.now()) / 1000 - 3600) * 100) * TICK_MICROS;
  const records: StoredRecord[] = [];
  /** The `i`th entry of a feed, `perTick` entries a tick from `start`. */
  const entry = (kind: StoredRecord['kind'], i: number, perTick: number, id: string, fields: Record<string, unknown>) => {
    const seq = fromMicros(start + Math.floor(i / perTick) * TICK_MICROS + 1 + (i % perTick));
    const data = { id, dateModified: new Date(seq * 1000).toISOString(), ...fields };
    records.push({ kind, id, rev: 1, seq, doc: { data }, index: { isPublic: true, isTest: false, nextCheck: null }, revisions: [] });
    return id;
  };
  for (let i = 0; i < ENTRIES; i++) {
    // Three entries a tick, so that parts end inside ticks too.
    const lots = [{ id: 'l'.repeat(32), title: 'x'.repeat(LOT_BYTES), status: 'active' }];
    ids.push(entry('tenders', i, 3, String(i).padStart(32, '0'), { status: 'active.enquiries', lots }));
  }
  for (let i = 0; i < 4 * PLANS_PER_TICK; i++) {
    planIds.push(entry('plans', i, PLANS_PER_TICK, `p${String(i).padStart(31, '0')}`, { status: 'scheduled' }));
  }
  await server.store.transfer.importRecords(records);
});
t.teardown(() => server.close());

const PATH = '/api/2.5/tenders?limit=1000&opt_fields=lots';

t.test('a page of 1000 big entries whose client reads nothing holds one part of them', async (t) => {
  // Teaches the node the size of these entries, as any earlier page would.
  await server.request('GET', '/api/2.5/tenders?limit=2&opt_fields=lots');
  read.entries = 0;
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  socket.write(`GET ${PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  socket.pause();
  t.teardown(() => socket.destroy());
  for (let last = -1; read.entries !== last;) {
    last = read.entries;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const held = read.entries * LOT_BYTES;
  t.ok(read.entries < ENTRIES, `${read.entries} of ${ENTRIES} entries read while the client reads nothing`);
  t.ok(held < PAGE_READ_BYTES + 16 * 1024 * 1024, `${held >> 20} MiB of entries read: a part and what the sockets took`);
  // The client reads: the page comes whole.
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.resume();
  await new Promise((resolve) => socket.once('end', resolve));
  const text = Buffer.concat(chunks).toString();
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  const json = /transfer-encoding: chunked/i.test(text) ? unchunk(body) : body;
  const page = JSON.parse(json);
  t.same(
    page.data.map((entry: { id: string }) => entry.id),
    ids,
    'every entry once, in order',
  );
  t.equal(page.data[0].lots[0].title.length, LOT_BYTES);
  t.type(page.next_page.offset, 'number');
});

t.test('parts of one entry make the same pages as a crawler reads, in both directions', async (t) => {
  for (const descending of [false, true]) {
    const listed: string[] = [];
    let offset = '';
    for (;;) {
      const reply = await server.request('GET', `/api/2.5/tenders?limit=40&opt_fields=lots${descending ? '&descending=1' : ''}${offset}`);
      if (!reply.body.data.length) break;
      const next = reply.body.data.length;
      if (listed.length + next < ENTRIES) t.ok(next >= 40, `a page followed by more holds ${next} ≥ 40`);
      listed.push(...reply.body.data.map((entry: { id: string }) => entry.id));
      offset = `&offset=${reply.body.next_page.offset}`;
    }
    t.same(listed, descending ? [...ids].reverse() : ids, `${descending ? 'descending' : 'ascending'}: every entry once, in order`);
  }
});

/** A chunked HTTP/1.1 body's content. */
function unchunk(body: string): string {
  const buffer = Buffer.from(body);
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const line = buffer.indexOf('\r\n', at);
    const size = parseInt(buffer.subarray(at, line).toString(), 16);
    if (!size) return Buffer.concat(parts).toString();
    parts.push(buffer.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

t.test("a feed's first page on a node that knows nothing of its entries' size takes a few reads, not one an entry", async (t) => {
  read.calls = 0;
  const reply = await server.request('GET', '/api/2.5/plans?limit=100');
  t.equal(reply.status, 200);
  t.same(
    reply.body.data.map((entry: { id: string }) => entry.id),
    planIds.slice(0, 2 * PLANS_PER_TICK),
    'two ticks whole',
  );
  // One entry first (its size unknown), the rest of its tick at once, then the next tick and what is left of it.
  t.ok(read.calls <= 4, `${read.calls} store reads`);
});

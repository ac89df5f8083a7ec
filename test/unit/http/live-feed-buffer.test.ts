/**
 * What a live-feed stream whose client reads nothing holds (docs/platform.md §Live feed: Limits): its buffer and one
 * entry, while it catches up on the feed's past and once it is live. Counted in bytes and rendered entries.
 */
import t, { type Test } from 'tap';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import pino from 'pino';
import { loadConfig } from '../../../src/config';
import type { EventStream } from '../../../src/http/event-stream';
import { LiveFeeds } from '../../../src/http/live-feeds';
import type { FeedQuery, Store, Stored } from '../../../src/store/port';

const ENTRY_BYTES = 64 * 1024;
const BUFFER_BYTES = 256 * 1024;

/** A store of `tenders` only, each entry's JSON `ENTRY_BYTES` long; positions one second apart. */
function memoryStore(count: number) {
  const stored: Stored[] = [];
  const add = (n: number) => {
    for (let i = 0; i < n; i++) {
      const seq = 1_700_000_000 + stored.length + 1;
      stored.push({ kind: 'tenders', id: String(stored.length), rev: 1, seq, doc: { data: { id: String(seq) } } });
    }
  };
  add(count);
  const feed = async (q: FeedQuery) => {
    const listed = stored.filter((s) => q.offset === undefined || (q.descending ? s.seq < q.offset : s.seq > q.offset));
    return (q.descending ? [...listed].reverse() : listed).slice(0, q.limit);
  };
  const store = { session: () => ({ feed, token: () => undefined }) } as unknown as Store;
  return { store, add };
}

/** A node's live feeds on a loopback server; each stream's bytes waiting in the process, sampled at each entry rendered. */
async function streamsServer(t: Test, store: Store) {
  const config = { ...loadConfig({}).feedStreams, bufferBytes: BUFFER_BYTES, pollMs: 10 };
  const feeds = new LiveFeeds(store, config, pino({ level: 'silent' }));
  const rendered = { count: 0, mostWaiting: 0 };
  let out: EventStream | undefined;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    out = feeds.open(
      {
        kind: 'tenders',
        mode: 'live',
        after: undefined,
        holder: 'ip:127.0.0.1',
        cap: 0,
        render: {
          key: (s) => String(s.seq),
          json: () => {
            rendered.count += 1;
            rendered.mostWaiting = Math.max(rendered.mostWaiting, out!.waiting());
            return Buffer.from(JSON.stringify({ pad: 'x'.repeat(ENTRY_BYTES - 10) }));
          },
        },
      },
      res,
    );
    out.body.pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    server.closeAllConnections();
    await feeds.close();
    await new Promise((resolve) => server.close(resolve));
  });
  const port = (server.address() as { port: number }).port;
  /** A client that sends its request and never reads. */
  const idle = (): Socket => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
    socket.pause();
    t.teardown(() => socket.destroy());
    return socket;
  };
  return { rendered, idle, feeds, stream: () => out };
}

/** Waits until no entry was rendered for a while: the stream waits for its client. */
async function settled(rendered: { count: number }) {
  for (let last = -1; rendered.count !== last;) {
    last = rendered.count;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

t.test('a stream catching up on the past holds its buffer and one entry, and renders no more until its client reads', async (t) => {
  const entries = 2000; // 128 MiB of entries: more than the socket buffers of loopback take
  const { store } = memoryStore(entries);
  const { rendered, idle, stream } = await streamsServer(t, store);
  const socket = idle();
  await settled(rendered);
  t.ok(rendered.count < entries, `${rendered.count} of ${entries} entries rendered`);
  t.ok(rendered.mostWaiting <= BUFFER_BYTES, `at most ${rendered.mostWaiting} bytes waited when one more was rendered`);
  t.ok(stream()!.waiting() <= BUFFER_BYTES + ENTRY_BYTES + 200, `${stream()!.waiting()} bytes waiting: the buffer and one entry`);
  t.ok(stream()!.open, 'the stream waits for its client');
  // The client reads: the stream goes on.
  const before = rendered.count;
  socket.resume();
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.ok(rendered.count > before, 'the stream goes on once its client reads');
});

t.test('a live stream whose client stops reading is cut before it holds more than its buffer and one entry', async (t) => {
  const { store, add } = memoryStore(1);
  const { rendered, idle, feeds, stream } = await streamsServer(t, store);
  idle();
  await settled(rendered);
  const out = stream()!;
  const ended = new Promise<void>((resolve) => out.body.once('close', resolve));
  // The feed grows by batches while the client reads nothing; the reader sends them to the live stream.
  for (let batch = 0; batch < 40 && out.open; batch++) {
    add(50);
    feeds.committed(['tenders']);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.notOk(out.open, 'cut');
  t.ok(rendered.mostWaiting <= BUFFER_BYTES, `at most ${rendered.mostWaiting} bytes waited when one more was rendered`);
  t.ok(rendered.count < 40 * 50, `${rendered.count} entries rendered`);
  out.cut('closed');
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 1000))]);
});

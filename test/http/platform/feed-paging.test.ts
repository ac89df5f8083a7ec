import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { createLottedTender, procuringEntity, type Created } from '../../fixtures/tenders';

let server: TestServer;

interface Entry {
  id: string;
  procuringEntity: { name: string };
  dateModified: string;
}

/** Follows `next_page` from `offset` until a page comes back empty; returns the entries and the last offset. */
async function crawl(query: string, offset?: string): Promise<{ entries: Entry[]; offset: string; pages: number }> {
  const entries: Entry[] = [];
  let pages = 0;
  let next = offset;
  for (;;) {
    const path = `/api/2.5/tenders?opt_fields=procuringEntity&limit=7${query}${next === undefined ? '' : `&offset=${next}`}`;
    const reply = await server.request('GET', path);
    if (reply.status !== 200) throw new Error(`feed ${path}: ${reply.status} ${reply.text}`);
    pages += 1;
    next = String(reply.body.next_page.offset);
    if (reply.body.data.length === 0) return { entries, offset: next, pages };
    entries.push(...reply.body.data);
  }
}

/** Each write puts its own marker in `procuringEntity.name`, a field the feed can show. */
const markers = (entries: Entry[]) => new Map(entries.map((e) => [e.id, e.procuringEntity.name]));

const patchTender = (tender: Created, data: Record<string, unknown>) =>
  server.request('PATCH', `/api/2.5/tenders/${tender.id}`, { key: 'broker', token: tender.token, body: { data } });

/** A tender in active.enquiries: drafts are not listed in feeds. */
async function listedTender(marker: string): Promise<Created> {
  const tender = await createLottedTender(server);
  const reply = await patchTender(tender, { status: 'active.enquiries', procuringEntity: { ...procuringEntity(), name: marker } });
  if (reply.status !== 200) throw new Error(`activation: ${reply.status} ${reply.text}`);
  return tender;
}

/** Also with no feed entries kept by position, so that a page is read whole as well as in two steps. */
const configurations: [string, Record<string, string>][] = [
  ['as configured by default', {}],
  ['FEED_CACHE_MB=0', { FEED_CACHE_MB: '0' }],
];

for (const [name, env] of configurations) {
  t.test(name, async (t) => {
    t.before(async () => {
      server = await startTestServer({ env });
    });
    t.teardown(() => server.close());

    t.test('a crawler following next_page while writers create and patch sees the last acknowledged write of every object', async (t) => {
      const writers = 6;
      const writesPerWriter = 8;
      const acknowledged = new Map<string, string>();
      let crawling = true;
      const seen = new Map<string, string>();
      let crawlerOffset: string | undefined;
      const crawler = (async () => {
        while (crawling) {
          const page = await crawl('', crawlerOffset);
          crawlerOffset = page.offset;
          for (const [id, marker] of markers(page.entries)) seen.set(id, marker);
        }
      })();
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const tender = await listedTender(`writer ${w} activation`);
          acknowledged.set(tender.id, `writer ${w} activation`);
          for (let i = 0; i < writesPerWriter; i += 1) {
            const marker = `writer ${w} write ${i}`;
            const reply = await patchTender(tender, { procuringEntity: { ...procuringEntity(), name: marker } });
            t.equal(reply.status, 200, marker);
            acknowledged.set(tender.id, marker);
          }
        }),
      );
      crawling = false;
      await crawler;
      // One more pass from where the crawler stopped picks up what the writers acknowledged after its last page.
      for (const [id, marker] of markers((await crawl('', crawlerOffset)).entries)) seen.set(id, marker);
      t.equal(acknowledged.size, writers);
      t.same(Object.fromEntries(seen), Object.fromEntries(acknowledged), 'every object at its last acknowledged state');
    });

    t.test('descending pages list every object once, newest change first, and prev_page leads back', async (t) => {
      const forwards = await crawl('');
      const backwards = await crawl('&descending=1');
      const ids = (entries: Entry[]) => entries.map((e) => e.id);
      t.ok(forwards.entries.length >= 6);
      t.same(ids(backwards.entries), ids(forwards.entries).reverse(), 'the reverse of the ascending order');
      t.equal(new Set(ids(backwards.entries)).size, backwards.entries.length, 'no object twice');
      t.ok(forwards.pages > 1, 'more than one page at limit=7');

      const first = await server.request('GET', '/api/2.5/tenders?limit=2');
      const second = await server.request('GET', `/api/2.5/tenders?limit=2&offset=${first.body.next_page.offset}`);
      const back = await server.request('GET', new URL(second.body.prev_page.uri).pathname + new URL(second.body.prev_page.uri).search);
      t.same(ids(back.body.data), ids(first.body.data).reverse(), 'prev_page lists the previous entries, newest first');
    });

    t.test('an empty page keeps the offset, so a crawler can poll it for new changes', async (t) => {
      const { offset } = await crawl('');
      const empty = await server.request('GET', `/api/2.5/tenders?offset=${offset}`);
      t.same(empty.body.data, []);
      t.equal(String(empty.body.next_page.offset), offset);
      const tender = await listedTender('after the empty page');
      const fresh = await server.request('GET', `/api/2.5/tenders?offset=${offset}`);
      t.same(
        fresh.body.data.map((e: Entry) => e.id),
        [tender.id],
      );
    });
  });
}

import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { copyStore } from '../../scripts/migrate/copy-store';
import { verifyStores } from '../../scripts/migrate/verify-stores';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { KINDS, type Store } from '../../src/store/port';
import { uploadDocument } from '../fixtures/frameworks';
import { freshMongoDatabase, startTestServer, type TestServer } from '../fixtures/server';
import { aTender, createLottedTender, createTender } from '../fixtures/tenders';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const mongoUrl = process.env.MONGODB_URL;

const dir = mkdtempSync(join(tmpdir(), 'migrate-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run migrate` as an operator runs it; its output. */
async function migrate(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import=tsx', join(ROOT, 'scripts/migrate/main.ts'), '--no-progress', ...args], {
    cwd: ROOT,
    timeout: 60_000,
  });
  return stdout;
}

/** A node on `storeUrl` (the test server's manual clock and keys). */
const serverOn = (storeUrl: string) => startTestServer({ env: { STORE_URL: storeUrl } });

/** A registry with something of everything a copy carries: objects of two kinds, a draft, a document's file, a counter. */
async function populate(server: TestServer) {
  const tender = await createLottedTender(server);
  const draft = await createTender(server, aTender({ title: 'draft' }));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  const uploaded = await uploadDocument(server, `/api/2.5/tenders/${tender.id}/documents`, {
    key: 'broker',
    token: tender.token,
    content: 'the notice',
  });
  const feed = await server.request('GET', '/api/2.5/tenders');
  return {
    tender,
    draft,
    document: uploaded.body.data,
    offset: feed.body.next_page.offset as number,
    listed: feed.body.data.length as number,
  };
}

t.test('restore drill: SQLite → MongoDB → SQLite, then crawlers go on from their offsets and owners keep their tokens', async (t) => {
  const source = `sqlite:${join(dir, 'drill-source.db')}`;
  const restored = `sqlite:${join(dir, 'drill-restored.db')}`;
  const before = await serverOn(source);
  const made = await populate(before);
  t.equal(made.listed, 1, 'the feed lists the active tender, not the draft');
  await before.close();

  if (mongoUrl) {
    const middle = freshMongoDatabase(mongoUrl);
    t.teardown(async () => {
      const client = new MongoClient(middle);
      await client.db().dropDatabase();
      await client.close();
    });
    t.match(await migrate('--from', source, '--to', middle, '--verify'), /tenders +2 +2 +0[\s\S]*blobs +1 +1 +0[\s\S]*0 differences/);
    t.match(await migrate('--from', middle, '--to', restored, '--verify'), /0 differences/);
  } else {
    t.comment('MONGODB_URL not set: the drill copies SQLite to SQLite');
    t.match(await migrate('--from', source, '--to', restored, '--verify'), /tenders +2 +2 +0[\s\S]*0 differences/);
  }

  const after = await serverOn(restored);
  t.teardown(() => after.close());
  const crawl = await after.request('GET', `/api/2.5/tenders?offset=${made.offset}`);
  t.same(crawl.body.data, [], 'a crawler at its offset finds nothing listed twice');
  const all = await after.request('GET', '/api/2.5/tenders');
  t.same(all.body.next_page.offset, made.offset, 'the last position is the same');
  const patched = await after.request('PATCH', `/api/2.5/tenders/${made.tender.id}`, {
    key: 'broker',
    token: made.tender.token,
    body: { data: { title: 'after the restore' } },
  });
  t.equal(patched.status, 200, 'the owner token issued before the copy works');
  const historical = await after.request('GET', `/api/2.5/tenders/${made.tender.id}/historical`);
  t.equal(historical.status, 200, 'history reads on the restored store');
  const versions = Number(historical.headers.get('x-revision-n'));
  t.ok(versions >= 2, `${versions} versions: those made before the copy came with it`);
  t.equal(historical.body.data.title, 'after the restore');
  const first = await after.request('GET', `/api/2.5/tenders/${made.tender.id}/historical`, { headers: { 'X-Revision-N': '1' } });
  t.not(first.body.data.title, 'after the restore', 'the version as created, from before the copy');
  const next = await after.request('GET', `/api/2.5/tenders?offset=${made.offset}`);
  t.same(
    next.body.data.map((d: { id: string }) => d.id),
    [made.tender.id],
    'the change is listed after the offset',
  );
  t.ok(next.body.next_page.offset > made.offset);
  const file = await fetch(`${after.url}${new URL(made.document.url).pathname}${new URL(made.document.url).search}`);
  t.equal(await file.text(), 'the notice', 'the document file came along');
  const third = await createTender(after, aTender());
  t.not(third.data.tenderID, made.tender.data.tenderID, 'the tenderID counter goes on');
  t.not(third.data.tenderID, made.draft.data.tenderID);
});

t.test('a copy stopped half-way and run again puts the rest once; a dry run writes nothing', async (t) => {
  const from = openSqliteStore(join(dir, 'resume-from.db'));
  const to = openSqliteStore(join(dir, 'resume-to.db'));
  t.teardown(async () => {
    await from.close();
    await to.close();
  });
  const changes = Array.from({ length: 7 }, (_, i) => ({
    op: 'insert' as const,
    kind: KINDS[i % 2],
    id: `${i}`.padStart(32, '0'),
    doc: { data: { i } },
    index: { isPublic: i !== 3, isTest: false, nextCheck: i },
  }));
  for (const change of changes) await from.session().commit([change]);
  await from.session().putBlob({ id: 'blob', contentType: 'text/plain', data: Buffer.from('x') });
  await from.session().nextCounter('tenderID:2026-10-05');

  const dry = await copyStore(from, to, { batch: 2, blobBatch: 1, dryRun: true });
  t.same(
    [dry.tenders, dry.frameworks, dry.blobs, dry.counters],
    [
      { read: 4, put: 4 },
      { read: 3, put: 3 },
      { read: 1, put: 1 },
      { read: 1, put: 1 },
    ],
  );
  t.ok(
    Object.values(await to.transfer.count()).every((n) => n === 0),
    'the dry run wrote nothing',
  );

  let batches = 0;
  const stop = () => {
    if (++batches === 2) throw new Error('killed');
  };
  await t.rejects(copyStore(from, to, { batch: 2, blobBatch: 1, dryRun: false, progress: stop }), /killed/);
  t.equal((await to.transfer.count()).tenders, 4, 'stopped after two batches');
  const resumed = await copyStore(from, to, { batch: 2, blobBatch: 1, dryRun: false });
  t.same(
    [resumed.tenders, resumed.frameworks],
    [
      { read: 4, put: 0 },
      { read: 3, put: 3 },
    ],
  );
  const verified = await verifyStores(from, to, 2, 1);
  t.same(verified.differences, []);
  t.same([verified.same.tenders, verified.same.frameworks, verified.same.blobs, verified.same.counters], [4, 3, 1, 1]);
});

t.test('verify names what is missing, extra or different', async (t) => {
  const open = (name: string): Store => openSqliteStore(join(dir, name));
  const [a, b] = [open('verify-a.db'), open('verify-b.db')];
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const record = (id: string, seq: number, rev = 1) => ({
    kind: 'plans' as const,
    id,
    rev,
    seq,
    doc: { data: { id } },
    index: { isPublic: true, isTest: false, nextCheck: null },
    revisions: [],
  });
  await a.transfer.importRecords([record('p1', 1), record('p2', 2), record('p3', 3)]);
  await b.transfer.importRecords([record('p1', 1), record('p2', 2, 2), record('p4', 4)]);
  await b.transfer.importCounters([{ name: 'prettyID', value: 1 }]);
  const { differences, same } = await verifyStores(a, b, 2, 2);
  t.equal(same.plans, 1);
  t.same(differences, [
    { what: 'plans', id: 'p2', how: 'revision 1 → 2' },
    { what: 'plans', id: 'p3', how: 'missing' },
    { what: 'plans', id: 'p4', how: 'extra' },
  ]);
});

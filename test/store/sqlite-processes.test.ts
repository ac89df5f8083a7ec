import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';

const run = promisify(execFile);
const WRITES = 200;

t.test('two processes writing one SQLite file at once: nothing lost, seq unique, counters unique, numbered inserts unique', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'store-mp-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'r.db');
  const store = openSqliteStore(path);
  const sharedId = 'a'.repeat(32);
  await store.session().commit([
    {
      op: 'insert',
      kind: 'frameworks',
      id: sharedId,
      doc: { data: { n: 0 } },
      index: { isPublic: true, isTest: false, nextCheck: null },
    },
  ]);
  const writer = join(__dirname, 'fixtures/sqlite-writer.ts');
  await Promise.all([1, 2].map(() => run(process.execPath, ['--import=tsx', writer, path, String(WRITES), sharedId])));

  const shared = await store.session().get('frameworks', sharedId);
  t.equal(shared?.doc.data.n, 2 * WRITES, 'every acknowledged update of the shared object is there');
  t.equal(shared?.rev, 2 * WRITES + 1, 'revisions have no gaps');
  const feed = await store.session().feed({ kind: 'tenders', descending: false, limit: 1000, mode: 'live' });
  t.equal(feed.length, 2 * WRITES, 'every insert is listed');
  t.equal(new Set(feed.map((x) => x.seq)).size, feed.length, 'feed positions are unique');
  const numbers = feed.map((x) => x.doc.data.n).sort((a, b) => a - b);
  t.same(
    numbers,
    Array.from({ length: 2 * WRITES }, (_, i) => i + 1),
    'numbered inserts took every number once',
  );
  t.equal(await store.session().nextCounter('shared'), 2 * WRITES + 1, 'the counter was never handed out twice');
  await store.close();
});

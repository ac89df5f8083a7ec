import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import type { Change } from '../../src/store/port';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';

const insert = (id: string, n = 0): Change => ({
  op: 'insert',
  kind: 'frameworks',
  id,
  doc: { data: { id, n } },
  index: { isPublic: true, isTest: false, nextCheck: null },
});

function tempDb(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'causal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'r.db');
}

t.test('a session whose token is ahead of the view waits for that commit, then reads it', async (t) => {
  const path = tempDb(t);
  const writer = openSqliteStore(path);
  const reader = openSqliteStore(path, { catchUpTimeoutMs: 5000 });
  t.teardown(async () => {
    await writer.close();
    await reader.close();
  });
  const [first] = await writer.session().commit([insert('a'.repeat(32))]);
  const pending = reader.session({ seq: first.seq + 1 }).get('frameworks', 'b'.repeat(32));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await writer.session().commit([insert('b'.repeat(32))]);
  const seen = await pending;
  t.equal(seen?.id, 'b'.repeat(32), 'the read ran after the commit the token names');
});

t.test('a token no writer will reach is served after the bounded wait', async (t) => {
  const store = openSqliteStore(tempDb(t), { catchUpTimeoutMs: 100 });
  t.teardown(() => store.close());
  const started = Date.now();
  const session = store.session({ seq: 1_000_000 });
  t.equal(await session.get('frameworks', 'a'.repeat(32)), null);
  const waited = Date.now() - started;
  t.ok(waited >= 90 && waited < 2000, `waited ${waited} ms`);
  t.same(session.token(), { seq: 1_000_000 }, 'the token never goes back');
});

t.test('a TEST_STALE_READS store keeps reading its old snapshot and ignores the token', async (t) => {
  const path = tempDb(t);
  const writer = openSqliteStore(path);
  const stale = openSqliteStore(path, { staleReadsMs: 60_000, catchUpTimeoutMs: 5000 });
  t.teardown(async () => {
    await writer.close();
    await stale.close();
  });
  const [saved] = await writer.session().commit([insert('c'.repeat(32))]);
  const started = Date.now();
  t.equal(await stale.session({ seq: saved.seq }).get('frameworks', saved.id), null, 'the new object is not there');
  t.ok(Date.now() - started < 1000, 'no waiting for the token');
  t.equal((await writer.session().get('frameworks', saved.id))?.id, saved.id, 'a healthy connection sees it');
});

t.test('TEST_STALE_READS is refused unless NODE_ENV=test', async (t) => {
  t.throws(() => loadConfig({ TEST_STALE_READS: '1' }), /TEST_STALE_READS.*NODE_ENV=test/);
  t.throws(() => loadConfig({ TEST_STALE_READS: '1', NODE_ENV: 'production' }), /TEST_STALE_READS/);
  t.equal(loadConfig({ TEST_STALE_READS: '1', NODE_ENV: 'test' }).testStaleReadsMs, 2000);
  t.equal(loadConfig({}).testStaleReadsMs, null);
});

t.test('fresh sessions reading different objects get one token until the next commit, then a later one', async (t) => {
  const store = openSqliteStore(tempDb(t));
  t.teardown(() => store.close());
  const saved = await store.session().commit(['a', 'b', 'c'].map((c) => insert(c.repeat(32))));
  const last = saved[saved.length - 1].seq;
  const tokens = [];
  for (const { id } of saved) {
    const session = store.session();
    await session.get('frameworks', id);
    tokens.push(session.token());
  }
  t.same(
    tokens,
    saved.map(() => ({ seq: last })),
    'every reader is at the last commit met, not at its object',
  );
  const [later] = await store.session().commit([insert('d'.repeat(32))]);
  const reader = store.session();
  await reader.get('frameworks', saved[0].id);
  t.same(reader.token(), { seq: later.seq }, 'after a commit the token names it');
});

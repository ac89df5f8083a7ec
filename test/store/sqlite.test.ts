import t from 'tap';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { storeContract } from './contract';

storeContract(t, async () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'store-')), 'r.db')));

t.test('feed and get read documents back exactly as stored', async (t) => {
  const store = openSqliteStore(join(mkdtempSync(join(tmpdir(), 'store-')), 'r.db'));
  t.teardown(() => store.close());
  const data = { id: 'a1', dateModified: '2026-01-01T00:00:00+02:00', status: null, title: 'Закупівля "x"', amount: 1.5, nested: { k: [1, { z: true }] } };
  const config = { restricted: true };
  await store.session().commit([
    { op: 'insert', kind: 'tenders', id: 'a1', doc: { data, config, secrets: { tokenHash: 'h' } }, index: { isPublic: true, isTest: false, nextCheck: null } },
  ]);
  const [whole] = await store.session().feed({ kind: 'tenders', descending: false, limit: 10, mode: 'live' });
  t.strictSame(whole.doc, { data, config, secrets: { tokenHash: 'h' } });
  t.strictSame((await store.session().get('tenders', 'a1'))!.doc, whole.doc);
});

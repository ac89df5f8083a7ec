import t from 'tap';
import { updateOf } from '../../src/domain/save-rules';
import type { Store } from '../../src/store/port';
import { formatKyiv, parseIsoDate } from '../../src/time/kyiv';
import { stalledStore, storeGate } from '../../scripts/reliability/slow-store';
import { activeFramework } from '../fixtures/frameworks';
import { startTestServer } from '../fixtures/server';

t.test('a PATCH stamped before another write but committed after it → dateModified still moves forward', async (t) => {
  const gate = storeGate();
  let store: Store | undefined;
  const server = await startTestServer({ wrapStore: (opened) => stalledStore((store = opened), gate.ready) });
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const path = `/api/2.5/frameworks/${framework.id}`;

  gate.stall();
  const stampedFirst = server.request('PATCH', path, {
    key: 'broker',
    token: framework.token,
    body: { data: { description: 'stamped first' } },
  });
  await gate.held();
  // Another writer (a second node, a check) commits a second later while the PATCH waits to load the framework.
  server.clock.advance(1000);
  const current = (await store!.session().get('frameworks', framework.id))!;
  const later = formatKyiv(server.clock.now());
  await store!
    .session()
    .commit([updateOf(current, { ...current.doc, data: { ...current.doc.data, title_en: 'other writer', dateModified: later } })]);
  gate.release();

  const reply = await stampedFirst;
  t.equal(reply.status, 200);
  const stored = (await store!.session().get('frameworks', framework.id))!;
  t.equal(stored.doc.data.description, 'stamped first');
  t.ok(
    parseIsoDate(stored.doc.data.dateModified)!.getTime() > parseIsoDate(later)!.getTime(),
    `${stored.doc.data.dateModified} after ${later}`,
  );
  t.equal(reply.body.data.dateModified, stored.doc.data.dateModified, 'the reply shows the stored dateModified');
});

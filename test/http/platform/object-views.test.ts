import t from 'tap';
import { randomUUID } from 'node:crypto';
import { insertOf } from '../../../src/domain/save-rules';
import type { StoredDoc, Kind } from '../../../src/store/port';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { objectsOfEveryKind, READERS } from '../../fixtures/every-kind';

// About 30 s on MongoDB on 2 idle cores; a CI run beside two other builds took 126 s and was killed at tap's 120 s.
t.setTimeout(360_000);

const newId = () => randomUUID().replace(/-/g, '');

/** Data JSON.stringify writes in every way it can: escapes, numbers, integer-like keys it puts first. */
const exotic = (id: string) => ({
  id,
  owner: 'broker',
  status: 'active',
  title: 'Закупівля "x" \\ \n\t\u0001 \u2028 😀',
  amounts: [1.5, 0, -2, 1e21, 1e-7, 12345678901234567000],
  nested: { 2: 'two', b: { k: [true, false, null, {}] }, 1: 'one' },
  empty: '',
});

/** Objects of every kind through the API, restricted and not, and exotic ones straight into the store. */
async function objectsOfEveryKindAndExotic(server: TestServer): Promise<[Kind, string, string][]> {
  const objects = await objectsOfEveryKind(server);
  const configs: (StoredDoc | undefined)[] = [
    undefined,
    {},
    { restricted: false },
    { restricted: null },
    { restricted: 1 },
    { restricted: true },
  ];
  for (const kind of ['tenders', 'frameworks', 'submissions', 'qualifications', 'agreements', 'contracts'] as const) {
    for (const config of configs) {
      const id = newId();
      const doc: StoredDoc = { data: exotic(id), secrets: { tokenHash: 'h' } };
      if (config) doc.config = config;
      await server.store.session().commit([insertOf(kind, doc as { data: StoredDoc })]);
      objects.push([kind, id, `exotic, config ${JSON.stringify(config)}`]);
    }
  }
  return objects;
}

/**
 * `opt_pretty=0` is answered compactly by the JS rendering (the kind's present() and JSON.stringify) on every
 * read, so each reader's bytes without it must equal those, whether the view is rendered, kept, or the store's.
 */
for (const [name, env] of [
  ['no kept views: every read renders or takes the store view', { VIEW_CACHE_MB: '0' }],
  ['kept views: a first read and then kept ones', {}],
  ['kept views, restricted variant B (forbidden)', { RESTRICTED_MODE: 'forbidden' }],
] as const) {
  t.test(`${name}: every kind, every reader, restricted or not → the bytes of the JS rendering`, async (t) => {
    const server = await startTestServer({ env });
    t.teardown(() => server.close());
    for (const [kind, id, which] of await objectsOfEveryKindAndExotic(server)) {
      const path = `/api/2.5/${kind}/${id}`;
      for (const round of [1, 2]) {
        for (const key of READERS) {
          const rendered = await server.request('GET', `${path}?opt_pretty=0`, { key });
          const answered = await server.request('GET', path, { key });
          const label = `${kind} ${which}, reader ${key || 'anonymous'}, read ${round}`;
          t.equal(answered.status, rendered.status, label);
          t.equal(answered.text, rendered.text, label);
          t.equal(answered.headers.get('content-type'), rendered.headers.get('content-type'), label);
        }
      }
    }
  });
}

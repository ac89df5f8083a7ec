import t from 'tap';
import { errorReply as error, startTestServer } from '../../fixtures/server';
import { updateOf } from '../../../src/domain/save-rules';
import {
  DAY,
  aFramework,
  aProcuringEntity,
  aQuestion,
  aTenderer,
  activateFramework,
  createFramework,
  storedDoc,
} from '../../fixtures/frameworks';

/** docs/frameworks.md §Defense frameworks: a defense procuring entity always means restricted derivatives (issue 17 defect 6). */
t.test('defense frameworks', async (t) => {
  const server = await startTestServer({ now: new Date('2027-01-01T00:00:00+02:00') });
  t.teardown(() => server.close());
  const now = server.clock.now();
  const defense = () => aFramework(now, { procuringEntity: aProcuringEntity({ kind: 'defense' }) });

  t.test('POST with a defense entity and restrictedDerivatives false → 422 config.restrictedDerivatives, nothing stored', async (t) => {
    const res = await server.request('POST', '/api/2.5/frameworks', {
      key: 'broker',
      body: { data: defense(), config: { restrictedDerivatives: false } },
    });
    t.match(res, error(422, 'body', 'config.restrictedDerivatives', ['restrictedDerivatives must be true for defense procuring entity']));
    t.same((await server.request('GET', '/api/2.5/frameworks?mode=_all_&opt_fields=status')).body.data, []);
  });

  t.test('POST with a defense entity and the flag omitted → 201 with restrictedDerivatives true', async (t) => {
    const { reply } = await createFramework(server, { data: defense() });
    t.equal(reply.body.config.restrictedDerivatives, true);
  });

  t.test(
    'a general draft patched to kind defense → restrictedDerivatives true in the reply, after activation, and for its submissions',
    async (t) => {
      const draft = await createFramework(server, { config: { restrictedDerivatives: false } });
      const patched = await server.request('PATCH', `/api/2.5/frameworks/${draft.id}`, {
        key: 'broker',
        token: draft.token,
        body: { data: { procuringEntity: { kind: 'defense' } } },
      });
      t.equal(patched.status, 200);
      t.equal(patched.body.config.restrictedDerivatives, true, 'the PATCH reply');
      t.equal((await storedDoc(server, 'frameworks', draft.id))!.config.restrictedDerivatives, true, 'as stored');
      const activated = await activateFramework(server, draft);
      t.equal(activated.body.config.restrictedDerivatives, true, 'the activation reply');
      const submission = await server.request('POST', '/api/2.5/submissions', {
        key: 'broker1',
        body: { data: { tenderers: [aTenderer()], frameworkID: draft.id } },
      });
      t.equal(submission.body.config.restricted, true, 'its submissions are restricted');
      const open = await server.request('GET', `/api/2.5/submissions/${submission.body.data.id}`);
      t.equal(open.body.data.tenderers[0].contactPoint.email, 'Приховано', 'their contact points hidden');
    },
  );

  t.test(
    'every route that saves a framework sets it: a question, a chronograph check (a defense framework stored with false)',
    async (t) => {
      const framework = await createFramework(server, { data: defense() });
      await activateFramework(server, framework);
      // A framework stored before this rule, written around the save rules: defense with unrestricted derivatives.
      const unrestrict = async () => {
        const session = server.store.session();
        const stored = (await session.get('frameworks', framework.id))!;
        const doc = stored.doc as { data: Record<string, unknown>; config: Record<string, unknown> };
        await session.commit([{ ...updateOf(stored, doc), doc: { ...doc, config: { ...doc.config, restrictedDerivatives: false } } }]);
      };
      const stored = async () => (await storedDoc(server, 'frameworks', framework.id))!.config.restrictedDerivatives;
      await unrestrict();
      t.equal(await stored(), false, 'planted');
      const asked = await server.request('POST', `/api/2.5/frameworks/${framework.id}/questions`, {
        key: 'broker2',
        body: { data: aQuestion() },
      });
      t.equal(asked.status, 201);
      t.equal(await stored(), true, 'after a question');
      await unrestrict();
      server.clock.advance(20 * DAY);
      const check = await server.request('PATCH', `/api/2.5/frameworks/${framework.id}/chronograph`, {
        key: 'chronograph',
        body: { data: { id: framework.id } },
      });
      t.equal(check.body.data.status, 'unsuccessful', 'the check saved the framework');
      t.equal(check.body.config.restrictedDerivatives, true, 'after a chronograph check');
      t.equal(await stored(), true);
    },
  );
});

import t, { type Test } from 'tap';
import { startTestServer, err, type TestServer } from '../../fixtures/server';
import { activeFramework, activeSubmission, decideQualification, uploadDocument } from '../../fixtures/frameworks';
import { aPlan, createPlan } from '../../fixtures/plans';
import {
  activateDraft,
  draftWithLots,
  placeBid,
  runChronograph,
  tenderInTendering,
  TENDERING_END,
  TENDERING_START,
} from '../../fixtures/tenders';

/** The readers whose views of each version are recorded and compared: nobody, the owner, another broker. */
const READERS = [undefined, 'broker', 'broker2'];

/** Every reader's view of an object now, recorded to compare with its version read back later. */
async function views(server: TestServer, path: string): Promise<Map<string | undefined, unknown>> {
  const seen = new Map<string | undefined, unknown>();
  for (const key of READERS) seen.set(key, (await server.request('GET', path, { key })).body);
  return seen;
}

const historical = (server: TestServer, path: string, headers: Record<string, string>, key?: string) =>
  server.request('GET', `${path}/historical`, { headers, key });

/** Reads every recorded version back by its number, as every reader, and compares it with the view recorded then. */
async function checkVersions(t: Test, server: TestServer, path: string, recorded: Map<string | undefined, unknown>[]) {
  const current = await historical(server, path, {});
  t.equal(current.headers.get('x-revision-n'), String(recorded.length), `${recorded.length} versions`);
  let previousHash = '';
  for (const [i, seen] of recorded.entries()) {
    let hash = '';
    for (const key of READERS) {
      const res = await historical(server, path, { 'X-Revision-N': String(i + 1) }, key);
      t.equal(res.status, 200);
      t.same(res.body, seen.get(key), `version ${i + 1} as ${key ?? 'anonymous'} is the view recorded then`);
      t.equal(res.headers.get('x-previous-hash'), previousHash, 'X-Previous-Hash names the version before');
      hash = res.headers.get('x-revision-hash')!;
    }
    previousHash = hash;
  }
}

let server: TestServer;
t.beforeEach(async () => {
  server = await startTestServer();
});
t.afterEach(() => server.close());

t.test('a tender read at every version equals its view then, for every reader; bid actions make no version', async (t) => {
  const tender = await draftWithLots(server, { lots: 1 });
  const path = `/api/2.5/tenders/${tender.id}`;
  const recorded = [await views(server, path)];
  await activateDraft(server, tender, 'active.enquiries');
  recorded.push(await views(server, path));
  const patch = await server.request('PATCH', path, { key: 'broker', token: tender.token, body: { data: { title: 'Нова назва' } } });
  t.equal(patch.status, 200, patch.text);
  recorded.push(await views(server, path));
  server.clock.set(new Date(TENDERING_START.getTime() + 3_600_000));
  await runChronograph(server, tender.id);
  recorded.push(await views(server, path));
  const bid = await placeBid(server, { ...tender, data: patch.body.data }, 450, 1, 'broker1');
  await placeBid(server, { ...tender, data: patch.body.data }, 440, 2, 'broker2');
  t.equal((await historical(server, path, {})).headers.get('x-revision-n'), '4', 'bids make no version');
  server.clock.set(new Date(TENDERING_END.getTime() + 60_000));
  await runChronograph(server, tender.id);
  recorded.push(await views(server, path));
  await checkVersions(t, server, path, recorded);
  for (const n of ['1', '2', '3', '4', '5']) {
    for (const key of [...READERS, 'broker1']) {
      const res = await historical(server, path, { 'X-Revision-N': n }, key);
      t.notOk(JSON.stringify(res.body).includes(bid.id), `version ${n} as ${key ?? 'anonymous'}: bids sealed until the auction ends`);
    }
  }
});

t.test('a restricted tender hides in every version as in its view', async (t) => {
  const tender = await draftWithLots(server, { procedure: 'competitiveOrdering', lots: 1, config: { restricted: true } });
  const path = `/api/2.5/tenders/${tender.id}`;
  const recorded = [await views(server, path)];
  await activateDraft(server, tender, 'active.tendering');
  recorded.push(await views(server, path));
  await checkVersions(t, server, path, recorded);
  t.match(JSON.stringify((await historical(server, path, { 'X-Revision-N': '2' })).body), /Приховано/);
});

t.test('versions of a plan and of a framework and its derivatives, recorded step by step', async (t) => {
  const plan = await createPlan(server, aPlan());
  const planPath = `/api/2.5/plans/${plan.id}`;
  const planViews = [await views(server, planPath)];
  for (const title of ['Друга назва', 'Третя назва']) {
    await server.request('PATCH', planPath, {
      key: 'broker',
      token: plan.token,
      body: { data: { budget: { ...plan.data.budget, description: title } } },
    });
    planViews.push(await views(server, planPath));
  }
  await checkVersions(t, server, planPath, planViews);

  const framework = await activeFramework(server, { restricted: true });
  const submission = await activeSubmission(server, framework.id);
  const qualificationPath = `/api/2.5/qualifications/${submission.qualificationID}`;
  const qualificationViews = [await views(server, qualificationPath)];
  await uploadDocument(server, `${qualificationPath}/documents`, { key: 'broker', token: framework.token });
  qualificationViews.push(await views(server, qualificationPath));
  await decideQualification(server, framework, submission.qualificationID, 'active');
  qualificationViews.push(await views(server, qualificationPath));
  await checkVersions(t, server, qualificationPath, qualificationViews);
  const masked = await historical(server, qualificationPath, { 'X-Revision-N': '2' });
  t.match(JSON.stringify(masked.body), /Приховано/, 'a restricted qualification stays hidden in its versions');

  for (const kind of ['frameworks', 'submissions']) {
    const id = kind === 'frameworks' ? framework.id : submission.id;
    const res = await historical(server, `/api/2.5/${kind}/${id}`, { 'X-Revision-N': '1' });
    t.equal(res.status, 200, `${kind} have versions`);
    t.equal(res.body.data.status, 'draft');
  }
});

t.test('X-Revision-Date reads the version current then; bad numbers, dates and hashes → the reference 404s', async (t) => {
  const plan = await createPlan(server, aPlan());
  const path = `/api/2.5/plans/${plan.id}`;
  const created = server.clock.now();
  server.clock.set(new Date(created.getTime() + 3_600_000));
  await server.request('PATCH', path, {
    key: 'broker',
    token: plan.token,
    body: { data: { budget: { ...plan.data.budget, description: 'пізніше' } } },
  });
  const between = new Date(created.getTime() + 60_000).toISOString();
  const before = await historical(server, path, { 'X-Revision-Date': between });
  t.equal(before.headers.get('x-revision-n'), '1', 'the version current a minute after creation');
  t.equal(before.body.data.budget.description, plan.data.budget.description);
  const versionNotFound = err('header', 'version', 'Not Found');
  const bad: Record<string, string>[] = [
    { 'X-Revision-N': '0' },
    { 'X-Revision-N': 'abc' },
    { 'X-Revision-N': '3' },
    { 'X-Revision-N': '-1' },
    { 'X-Revision-Date': '2001-01-01T00:00:00+02:00' },
    { 'X-Revision-Date': 'not a date' },
  ];
  for (const headers of bad) {
    const res = await historical(server, path, headers);
    t.same({ status: res.status, body: res.body }, { status: 404, body: versionNotFound }, JSON.stringify(headers));
  }
  const wrongHash = await historical(server, path, { 'X-Revision-N': '1', 'X-Revision-Hash': 'f'.repeat(32) });
  t.same({ status: wrongHash.status, body: wrongHash.body }, { status: 404, body: err('header', 'hash', 'Not Found') });
  const hash = (await historical(server, path, { 'X-Revision-N': '1' })).headers.get('x-revision-hash')!;
  t.equal((await historical(server, path, { 'X-Revision-N': '1', 'X-Revision-Hash': hash })).status, 200, 'the right hash');
  const unknown = await server.request('GET', `/api/2.5/plans/${'f'.repeat(32)}/historical`);
  t.same({ status: unknown.status, body: unknown.body }, { status: 404, body: err('url', 'plan_id', 'Not Found') });
});

t.test('revisions name the broker or system role that made them', async (t) => {
  const tender = await tenderInTendering(server, { lots: 1 });
  const revisions = await server.store.session().history('tenders', tender.id);
  t.same(
    revisions.map((r) => r.author),
    ['broker', 'broker', 'chronograph'],
  );
});

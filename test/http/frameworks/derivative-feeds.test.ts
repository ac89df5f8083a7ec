import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import {
  aTenderer,
  activeFramework,
  activeSubmission,
  createSubmission,
  decideQualification,
  uploadDocument,
} from '../../fixtures/frameworks';

const API = '/api/2.5';
const H = 'Приховано';

/** Default fields in the reference's order (dps/tutorial/get-*-by-framework-id.http). */
const SUBMISSION_KEYS = [
  'tenderers',
  'frameworkID',
  'status',
  'dateCreated',
  'dateModified',
  'date',
  'qualificationID',
  'datePublished',
  'id',
];
const QUALIFICATION_KEYS = ['documents', 'submissionID', 'frameworkID', 'status', 'date', 'dateCreated', 'dateModified', 'id'];

/** Framework `a` with two active submissions (the first one's qualification documented and decided) and a draft; framework `b` with one. */
async function twoFrameworks(server: TestServer, restricted = false) {
  const a = await activeFramework(server, { restricted });
  const b = await activeFramework(server);
  const s1 = await activeSubmission(server, a.id, { key: 'broker1', tenderer: aTenderer('00137256') });
  const sb = await activeSubmission(server, b.id, { key: 'broker1' });
  const s2 = await activeSubmission(server, a.id, { key: 'broker2', tenderer: aTenderer('00137257') });
  await createSubmission(server, a.id, { key: 'broker1', tenderer: aTenderer('00137258') });
  await uploadDocument(server, `${API}/qualifications/${s1.qualificationID}/documents`, { key: 'broker', token: a.token });
  server.clock.advance(10); // the decision in a feed tick of its own, so a page of one lists it alone (docs/platform.md §Feeds)
  await decideQualification(server, a, s1.qualificationID, 'unsuccessful');
  return { a, b, s1, s2, sb };
}

const ids = (body: any) => body.data.map((entry: any) => entry.id);

t.test('a framework feed lists only that framework’s public objects, default fields in the reference’s order', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { a, b, s1, s2, sb } = await twoFrameworks(server);
  const get = async (path: string) => (await server.request('GET', `${API}${path}`)).body;

  const submissions = await get(`/frameworks/${a.id}/submissions`);
  t.same(ids(submissions), [s2.id, s1.id], 'not the draft, not the other framework’s; s1 changed last (completed by its decision)');
  t.strictSame(
    submissions.data.map((e: any) => Object.keys(e)),
    [SUBMISSION_KEYS, SUBMISSION_KEYS],
  );
  const whole = await get(`/submissions?opt_fields=${SUBMISSION_KEYS.join(',')}`);
  t.same(
    submissions.data,
    whole.data.filter((e: any) => e.frameworkID === a.id),
    'the same entries as the submissions feed',
  );
  t.same(ids(await get(`/frameworks/${b.id}/submissions`)), [sb.id]);

  const qualifications = await get(`/frameworks/${a.id}/qualifications`);
  t.same(ids(qualifications), [s2.qualificationID, s1.qualificationID], 'in feed order: the decided one changed last');
  t.strictSame(Object.keys(qualifications.data[1]), QUALIFICATION_KEYS);
  t.strictSame(
    Object.keys(qualifications.data[0]),
    QUALIFICATION_KEYS.filter((k) => k !== 'documents'),
  );
  t.same(qualifications.data[1].status, 'unsuccessful');
  t.same(ids(await get(`/frameworks/${b.id}/qualifications`)), [sb.qualificationID]);
});

t.test('a framework feed pages as every feed, its links naming the unfiltered feed (as the reference)', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { a, s1, s2 } = await twoFrameworks(server);
  const get = async (path: string) => (await server.request('GET', `${API}${path}`)).body;

  const first = await get(`/frameworks/${a.id}/submissions?limit=1`);
  t.same(ids(first), [s2.id], 's1 changed last (completed by its decision)');
  const offset = first.next_page.offset;
  t.type(offset, 'number');
  t.equal(first.next_page.path, `${API}/submissions?limit=1&offset=${offset}`);
  t.ok(first.next_page.uri.endsWith(first.next_page.path));
  t.notOk('prev_page' in first);

  const second = await get(`/frameworks/${a.id}/submissions?limit=1&offset=${offset}`);
  t.same(ids(second), [s1.id]);
  t.match(second.prev_page.path, new RegExp(`^${API}/submissions\\?limit=1&descending=1&offset=[\\d.]+$`));
  t.same(ids(await get(`/frameworks/${a.id}/submissions?offset=${second.next_page.offset}`)), []);

  const descending = await get(`/frameworks/${a.id}/qualifications?descending=1`);
  t.same(ids(descending), [s1.qualificationID, s2.qualificationID]);
  t.match(descending.prev_page.path, new RegExp(`^${API}/qualifications\\?offset=[\\d.]+$`));
  t.same(ids(await get(`/frameworks/${a.id}/submissions?mode=test`)), []);
  t.same(ids(await get(`/frameworks/${a.id}/submissions?mode=_all_`)), [s2.id, s1.id]);

  const optional = await get(`/frameworks/${a.id}/submissions?opt_fields=submissionType,status,owner`);
  t.strictSame(Object.keys(optional.data[0]), [...SUBMISSION_KEYS, 'submissionType'], 'defaults stay, unknown names are ignored');
  t.equal(optional.next_page.path, `${API}/submissions?opt_fields=submissionType&offset=${optional.next_page.offset}`);
});

t.test('an unknown or malformed framework id lists nothing (the reference does not look the framework up)', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  await twoFrameworks(server);
  for (const id of ['f'.repeat(32), 'not-an-id']) {
    for (const kind of ['submissions', 'qualifications']) {
      const reply = await server.request('GET', `${API}/frameworks/${id}/${kind}`);
      t.same(
        [reply.status, reply.body],
        [200, { data: [], next_page: { offset: '', path: `${API}/${kind}`, uri: reply.body.next_page.uri } }],
      );
    }
  }
});

const READERS = ['', 'broker', 'broker1', 'broker2', 'brokerr'] as const;
/** Who sees s1 and its qualification whole: the framework owner, s1's owner, `r` brokers (spec: Access rules by object). */
const WHOLE = ['broker', 'broker1', 'brokerr'];

for (const mode of ['hidden', 'forbidden'] as const) {
  t.test(`restricted objects in a framework feed, variant ${mode}: as in the unfiltered feed, never more`, async (t) => {
    const server = await startTestServer({ env: { RESTRICTED_MODE: mode } });
    t.teardown(() => server.close());
    const { a, s1 } = await twoFrameworks(server, true);
    const reduced = (id: string, entry: any) => ({ id, dateModified: entry.dateModified, frameworkID: a.id, restricted: true });
    for (const reader of READERS) {
      const who = reader || 'anonymous';
      const as = async (path: string) => (await server.request('GET', `${API}${path}`, { key: reader })).body.data;
      const submission = (await as(`/frameworks/${a.id}/submissions`)).find((e: any) => e.id === s1.id);
      const qualification = (await as(`/frameworks/${a.id}/qualifications`)).find((e: any) => e.id === s1.qualificationID);
      const feedSubmission = (await as(`/submissions?opt_fields=${SUBMISSION_KEYS.join(',')}`)).find((e: any) => e.id === s1.id);
      const feedQualification = (await as(`/qualifications?opt_fields=${QUALIFICATION_KEYS.join(',')}`)).find(
        (e: any) => e.id === s1.qualificationID,
      );
      t.same(submission, feedSubmission, `submission × ${who}: as the submissions feed`);
      t.same(qualification, feedQualification, `qualification × ${who}: as the qualifications feed`);
      if (WHOLE.includes(reader)) {
        t.same(submission.tenderers, [aTenderer('00137256')], `submission × ${who}: whole`);
        t.notSame(qualification.documents[0].url, H, `qualification × ${who}: whole`);
      } else if (mode === 'hidden' && !reader) {
        t.same(submission.tenderers[0].address.streetAddress, H, `submission × ${who}: hidden`);
        t.same(qualification.documents[0].url, H, `qualification × ${who}: hidden`);
      } else {
        t.strictSame(submission, reduced(s1.id, submission), `submission × ${who}: reduced`);
        t.strictSame(qualification, reduced(s1.qualificationID, qualification), `qualification × ${who}: reduced`);
      }
    }
  });
}

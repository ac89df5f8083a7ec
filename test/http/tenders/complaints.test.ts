import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aCancellation, activeTender, getTender, plant, postCancellation } from '../../fixtures/cancellations';
import { supplier, type Created } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const complaint = {
  title: 'complaint title',
  type: 'complaint',
  description: 'complaint description',
  author: supplier('Державне управління справами', '00037256'),
};
const post = (path: string, o: { key?: string; token?: string } = {}) =>
  server.request('POST', path, { key: 'key' in o ? o.key : 'broker', token: o.token, body: { data: complaint } });
const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });
const FORBIDDEN_BY_CONFIG = error(403, 'body', 'data', "Can't add complaint as it is forbidden by configuration");
const NO_ROUTE = error(404, 'url', 'not_found', 'Not Found');

/** A tender with an award and a cancellation to complain about. */
async function tenderWithParts(procedure: 'belowThreshold' | 'competitiveOrdering'): Promise<{ tender: Created; paths: string[] }> {
  const tender = await activeTender(server, procedure, 1);
  const cancellation = (await postCancellation(server, tender, aCancellation())).body.data;
  await plant(server, tender.id, (d) => (d.awards = [{ id: 'a'.repeat(32), lotID: d.lots[0].id, status: 'pending' }]));
  const base = `/api/2.5/tenders/${tender.id}`;
  return {
    tender,
    paths: [`${base}/complaints`, `${base}/awards/${'a'.repeat(32)}/complaints`, `${base}/cancellations/${cancellation.id}/complaints`],
  };
}

t.test(
  'competitiveOrdering: a complaint of the tender, an award or a cancellation → 403 "Can\'t add complaint as it is forbidden by configuration"',
  async (t) => {
    const { tender, paths } = await tenderWithParts('competitiveOrdering');
    const before = await getTender(server, tender);
    for (const path of paths) {
      t.same(reply(await post(path, { token: tender.token })), FORBIDDEN_BY_CONFIG, `owner: ${path}`);
      t.same(reply(await post(path, { key: 'broker1' })), FORBIDDEN_BY_CONFIG, `another broker: ${path}`);
      t.same(reply(await post(path, { key: undefined })), error(403, 'url', 'permission', 'Forbidden'), `no key: ${path}`);
    }
    t.same(await getTender(server, tender), before, 'nothing is saved');
  },
);

t.test('competitiveOrdering: an unknown tender, award or cancellation is 404 first', async (t) => {
  const { tender } = await tenderWithParts('competitiveOrdering');
  const base = `/api/2.5/tenders/${tender.id}`;
  t.same(reply(await post('/api/2.5/tenders/some_id/complaints')), error(404, 'url', 'tender_id', 'Not Found'));
  t.same(reply(await post(`${base}/awards/some_id/complaints`)), error(404, 'url', 'award_id', 'Not Found'));
  t.same(reply(await post(`${base}/cancellations/some_id/complaints`)), error(404, 'url', 'cancellation_id', 'Not Found'));
});

t.test('belowThreshold has no complaint routes → 404', async (t) => {
  const { tender, paths } = await tenderWithParts('belowThreshold');
  for (const path of paths) t.same(reply(await post(path, { token: tender.token })), NO_ROUTE, path);
});

t.test('neither procedure has qualifications, so no qualification complaints → 404', async (t) => {
  const { tender } = await tenderWithParts('competitiveOrdering');
  t.same(reply(await post(`/api/2.5/tenders/${tender.id}/qualifications/${'a'.repeat(32)}/complaints`)), NO_ROUTE);
});

t.test('complaint lists are empty and any complaint is 404 where the procedure has the route; elsewhere no route', async (t) => {
  const co = await tenderWithParts('competitiveOrdering');
  for (const path of co.paths) {
    t.same(reply(await server.request('GET', path)), { status: 200, body: { data: [] } }, `competitiveOrdering ${path}`);
    t.same(reply(await server.request('GET', `${path}/${'0'.repeat(32)}`)), error(404, 'url', 'complaint_id', 'Not Found'));
  }
  const bt = await tenderWithParts('belowThreshold');
  const [tenderList, awardList, cancellationList] = bt.paths;
  t.same((await server.request('GET', tenderList)).body, { data: [] }, 'belowThreshold reads tender complaints');
  t.same((await server.request('GET', awardList)).body, { data: [] }, 'and award complaints');
  t.same(reply(await server.request('GET', cancellationList)), NO_ROUTE, 'but has no cancellation complaints');
  t.same(
    reply(await server.request('GET', `/api/2.5/tenders/${bt.tender.id}/awards/some_id/complaints`)),
    error(404, 'url', 'award_id', 'Not Found'),
  );
});

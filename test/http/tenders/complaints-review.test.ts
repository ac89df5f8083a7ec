import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { getTender } from '../../fixtures/cancellations';
import { aComplaint, anObjection, complainableTender, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

t.test('a tender complaint: draft with its fee and token, paid, accepted, satisfied, resolved by the owner', async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const complaint = made.body.data;
  t.equal(complaint.status, 'draft');
  t.match(complaint.complaintID, new RegExp(`^${tender.data.tenderID}\\.a1$`));
  t.same(complaint.value, { amount: 2000, currency: 'UAH' }, 'the least fee while tendering');
  t.match(made.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
  t.match(complaint.objections[0], {
    id: /^[0-9a-f]{32}$/,
    requestedRemedies: [{ id: /^[0-9a-f]{32}$/ }],
    arguments: [{ id: /^[0-9a-f]{32}$/ }],
  });
  t.equal(made.headers.get('location'), `${server.url}${complaintsPath(tender)}/${complaint.id}`);
  const one = `${complaintsPath(tender)}/${complaint.id}`;

  const paid = await patchComplaint(server, one, { status: 'pending' }, 'bot');
  t.equal(paid.status, 200, paid.text);
  t.match(paid.body.data, { status: 'pending', dateSubmitted: String });

  const accepted = await patchComplaint(
    server,
    one,
    { status: 'accepted', reviewDate: '2026-10-10T00:00:00+03:00', reviewPlace: 'Place of review' },
    'reviewer',
  );
  t.equal(accepted.status, 200, accepted.text);
  t.match(accepted.body.data, { status: 'accepted', acceptance: true, dateAccepted: String, reviewPlace: 'Place of review' });

  const satisfied = await patchComplaint(server, one, { status: 'satisfied' }, 'reviewer');
  t.match(satisfied.body.data, { status: 'satisfied', dateDecision: String });

  const resolved = await patchComplaint(server, one, { status: 'resolved', tendererAction: 'Умови виправлено' }, 'broker', tender.token);
  t.equal(resolved.status, 200, resolved.text);
  t.match(resolved.body.data, { status: 'resolved', tendererAction: 'Умови виправлено', tendererActionDate: String });

  const read = await server.request('GET', one);
  t.same(read.body.data, resolved.body.data, 'read back as saved');
  t.notOk(JSON.stringify(await getTender(server, tender)).includes(made.body.access.token), 'the token is in no view');
  const list = await server.request('GET', complaintsPath(tender));
  t.same(list.body.data, [resolved.body.data]);

  // Each change of the complaint is a version of the tender; no version, feed entry or release holds its token.
  const history = (n: number) =>
    server.request('GET', `/api/2.5/tenders/${tender.id}/historical`, { headers: { 'X-Revision-N': String(n) } });
  const latest = Number((await server.request('GET', `/api/2.5/tenders/${tender.id}/historical`)).headers.get('x-revision-n'));
  const statuses = [];
  for (let n = 1; n <= latest; n += 1) {
    const version = await history(n);
    t.notOk(version.text.includes(made.body.access.token), `version ${n} holds no token`);
    statuses.push(version.body.data.complaints?.[0]?.status);
  }
  t.same(statuses.slice(-6), [undefined, 'draft', 'pending', 'accepted', 'satisfied', 'resolved'], 'one version a move');
  const feed = await server.request('GET', '/api/2.5/tenders?descending=1&opt_fields=status');
  t.equal(feed.body.data[0].id, tender.id, 'the feed lists the changed tender first');
  const ocds = await server.request('GET', `/api/2.5/tenders/${tender.id}?opt_schema=ocds`);
  t.notOk(ocds.text.includes(made.body.access.token), 'nor does its OCDS release');
});

t.test('declined, and refused moves', async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  t.same(
    await patchComplaint(server, one, { status: 'accepted' }, 'reviewer').then((r) => ({ status: r.status, body: r.body })),
    error(403, 'body', 'data', "Can't update complaint from draft to accepted status"),
  );
  t.equal((await patchComplaint(server, one, { status: 'pending' }, 'bot')).status, 200);
  const noDate = await patchComplaint(server, one, { status: 'accepted' }, 'reviewer');
  t.same({ status: noDate.status, body: noDate.body }, error(422, 'body', 'reviewDate', ['This field is required.']));
  await patchComplaint(server, one, { status: 'accepted', reviewDate: '2026-10-10T00:00:00+03:00' }, 'reviewer');
  const declined = await patchComplaint(server, one, { status: 'declined' }, 'reviewer');
  t.match(declined.body.data, { status: 'declined', dateDecision: String });
});

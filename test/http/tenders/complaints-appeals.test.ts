import t from 'tap';
import { errorReply as error, startTestServer, type Reply, type TestServer } from '../../fixtures/server';
import { aCancellation, getTender, patchCancellation, postCancellation, uploadCancellationDocument } from '../../fixtures/cancellations';
import { runChronograph } from '../../fixtures/tenders';
import {
  aComplaint,
  anObjection,
  awardedNegotiation,
  complainableTender,
  complaintsPath,
  patchComplaint,
  postComplaint,
} from '../../fixtures/complaints';
import { docserviceEnv, signedDocument, signedUrl } from '../../fixtures/docservice';
import type { Created } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer({ env: docserviceEnv });
});
t.teardown(() => server.close());

const reply = (r: Reply) => ({ status: r.status, body: r.body });
/** The law every appeal names, as the recordings show it. */
const LAW = {
  id: '922-VIII',
  legalName: 'Закон України "Про публічні закупівлі"',
  uri: 'https://zakon.rada.gov.ua/laws/show/922-19#n1284',
};
const LEGISLATION = { version: '2020-04-19', type: 'NATIONAL_LEGISLATION', article: '18.23', identifier: LAW };

/** A tender complaint brought to `pending` by the payment bot; its path and token. */
async function pendingComplaint(tender: Created) {
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  t.equal((await patchComplaint(server, one, { status: 'pending' }, 'bot')).status, 200);
  return { one, token: made.body.access.token as string };
}

/** The review body's acceptance and decision (`satisfied` or `declined`). */
async function decide(one: string, status: string) {
  await patchComplaint(server, one, { status: 'accepted', reviewDate: '2026-10-10T00:00:00+03:00' }, 'reviewer');
  t.equal((await patchComplaint(server, one, { status }, 'reviewer')).status, 200);
}

const postAppeal = (path: string, data: unknown, token?: string, key = 'broker') =>
  server.request('POST', `${path}/appeals`, { key, token, body: { data } });

t.test('the complainant and the owner appeal a decided complaint; the author names the case once', async (t) => {
  const tender = await complainableTender(server);
  const { one, token } = await pendingComplaint(tender);
  const early = reply(await postAppeal(one, { description: 'Test appeal' }, token, 'broker1'));
  t.same(early, error(403, 'body', 'data', "Can't submit or edit appeal in current (pending) complaint status"));
  await decide(one, 'satisfied');
  const before = await getTender(server, tender);

  // Refusals: nothing is stored.
  t.same(reply(await postAppeal(one, { description: 'x' }, undefined, 'broker2')), error(403, 'url', 'permission', 'Forbidden'));
  t.same(reply(await postAppeal(one, { description: 'x' }, undefined, 'reviewer')), error(403, 'url', 'permission', 'Forbidden'));
  t.same(reply(await postAppeal(one, { description: 'x' }, undefined, 'bot')), error(403, 'url', 'permission', 'Forbidden'));
  t.same(reply(await postAppeal(one, {}, token, 'broker1')), error(422, 'body', 'description', ['This field is required.']));
  const extra = await postAppeal(one, { description: 'x', author: 'tender_owner' }, token, 'broker1');
  t.equal(extra.status, 422, 'a server-set member is refused');
  const foreign = await postAppeal(
    one,
    { description: 'x', documents: [signedDocument({ url: 'http://example.com/get/abc' })] },
    token,
    'broker1',
  );
  t.equal(foreign.status, 403, "a document not on the document service: the documents' own refusal");
  const forged = signedDocument({ url: signedUrl({ md5: '1'.repeat(32) }) });
  t.equal(
    (await postAppeal(one, { description: 'x', documents: [forged] }, token, 'broker1')).status,
    422,
    'a url signed for another hash',
  );
  t.same(await getTender(server, tender), before, 'no refusal changed the tender');

  const document = signedDocument({ title: 'name.doc', format: 'application/msword' });
  const mine = await postAppeal(one, { description: 'test', documents: [document] }, token, 'broker1');
  t.equal(mine.status, 201, mine.text);
  const appeal = mine.body.data;
  t.equal(mine.headers.get('location'), `${server.url}${one}/appeals/${appeal.id}`);
  t.match(appeal, {
    id: /^[0-9a-f]{32}$/,
    description: 'test',
    author: 'complaint_owner',
    dateCreated: String,
    datePublished: String,
    legislation: LEGISLATION,
  });
  t.notOk('proceeding' in appeal);
  t.match(appeal.documents, [
    {
      id: /^[0-9a-f]{32}$/,
      title: 'name.doc',
      format: 'application/msword',
      author: 'complaint_owner',
      documentOf: 'tender',
      language: 'uk',
      confidentiality: 'public',
      hash: document.hash,
    },
  ]);
  t.ok(
    String(appeal.documents[0].url).includes(`${one}/appeals/${appeal.id}/documents/${appeal.documents[0].id}?download=`),
    "stored as this API's download address",
  );

  const theirs = await postAppeal(one, { description: 'Test appeal' }, tender.token, 'broker');
  t.equal(theirs.status, 201, theirs.text);
  t.match(theirs.body.data, { description: 'Test appeal', author: 'tender_owner', legislation: LEGISLATION });
  t.notOk('documents' in theirs.body.data);

  const read = await server.request('GET', one);
  t.same(read.body.data.appeals, [appeal, theirs.body.data], 'the complaint shows its appeals in the order they came');
  t.same((await server.request('GET', `${one}/appeals`)).body.data, [appeal, theirs.body.data]);
  t.same((await server.request('GET', `${one}/appeals/${appeal.id}`)).body.data, appeal);
  t.same(reply(await server.request('GET', `${one}/appeals/${'f'.repeat(32)}`)), error(404, 'url', 'appeal_id', 'Not Found'));

  // The court's case: by the appeal's author only, then fixed.
  const mineOne = `${one}/appeals/${appeal.id}`;
  const proceeding = { dateProceedings: '2025-06-10T10:00:00+03:00', proceedingNumber: '1234567890' };
  const atRest = await getTender(server, tender);
  t.same(
    reply(await server.request('PATCH', mineOne, { key: 'broker', token: tender.token, body: { data: { proceeding } } })),
    error(403, 'url', 'role', 'Appeal can be updated only by author'),
  );
  t.same(
    reply(await server.request('PATCH', mineOne, { key: 'broker2', body: { data: { proceeding } } })),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  const noNumber = await server.request('PATCH', mineOne, {
    key: 'broker1',
    token,
    body: { data: { proceeding: { dateProceedings: proceeding.dateProceedings } } },
  });
  t.equal(noNumber.status, 422, 'a proceeding without its number');
  const described = await server.request('PATCH', mineOne, { key: 'broker1', token, body: { data: { description: 'changed' } } });
  t.equal(described.status, 422, 'the description is not patched');
  t.same(await getTender(server, tender), atRest, 'no refused change is stored');
  const named = await server.request('PATCH', mineOne, { key: 'broker1', token, body: { data: { proceeding } } });
  t.equal(named.status, 200, named.text);
  t.same(named.body.data, { ...appeal, proceeding });
  const again = await server.request('PATCH', mineOne, {
    key: 'broker1',
    token,
    body: { data: { proceeding: { ...proceeding, proceedingNumber: '12345' } } },
  });
  t.same(reply(again), error(422, 'body', 'proceeding', 'Forbidden to patch proceeding'));
  t.same((await server.request('GET', mineOne)).body.data.proceeding, proceeding);

  // Each appeal and change is a version of the tender; no view, version, feed or release holds a token.
  const latest = Number((await server.request('GET', `/api/2.5/tenders/${tender.id}/historical`)).headers.get('x-revision-n'));
  const version = (n: number) =>
    server.request('GET', `/api/2.5/tenders/${tender.id}/historical`, { headers: { 'X-Revision-N': String(n) } });
  const counts = [];
  for (let n = latest - 2; n <= latest; n += 1) {
    const v = await version(n);
    t.notOk(v.text.includes(token) || v.text.includes(tender.token), `version ${n} holds no token`);
    const appeals = v.body.data.complaints[0].appeals ?? [];
    counts.push([appeals.length, Boolean(appeals[0]?.proceeding)]);
  }
  t.same(
    counts,
    [
      [1, false],
      [2, false],
      [2, true],
    ],
    'one version a change',
  );
  const feed = await server.request('GET', '/api/2.5/tenders?descending=1&opt_fields=status');
  t.equal(feed.body.data[0].id, tender.id, 'the feed lists the changed tender first');
  const views = [
    await server.request('GET', `/api/2.5/tenders/${tender.id}`),
    await server.request('GET', `/api/2.5/tenders/${tender.id}?opt_schema=ocds`),
  ];
  for (const v of views) t.notOk(v.text.includes(token) || v.text.includes(tender.token), 'no token in the views');
});

t.test("an appeal's documents: its author adds, a document's author changes it", async (t) => {
  const tender = await complainableTender(server);
  const { one, token } = await pendingComplaint(tender);
  await decide(one, 'declined');
  const theirs = (await postAppeal(one, { description: 'Test appeal' }, tender.token)).body.data;
  const docs = `${one}/appeals/${theirs.id}/documents`;
  const sign = signedDocument({ title: 'sign.p7s', format: 'application/pkcs7-signature' });
  const before = await getTender(server, tender);
  t.same(
    reply(await server.request('POST', docs, { key: 'broker1', token, body: { data: sign } })),
    error(403, 'url', 'role', 'Appeal document can be added only by appeal author'),
  );
  t.same(reply(await server.request('POST', docs, { key: 'broker2', body: { data: sign } })), error(403, 'url', 'permission', 'Forbidden'));
  t.equal((await server.request('POST', docs, { key: 'broker', token: tender.token, body: { data: { title: 'x' } } })).status, 422);
  t.same(await getTender(server, tender), before, 'nothing stored on refusal');

  const added = await server.request('POST', docs, { key: 'broker', token: tender.token, body: { data: sign } });
  t.equal(added.status, 201, added.text);
  const doc = added.body.data;
  t.match(doc, { title: 'sign.p7s', author: 'tender_owner', documentOf: 'tender', language: 'uk', confidentiality: 'public' });
  t.equal(added.headers.get('location'), `${server.url}${docs}/${doc.id}`);
  t.same((await server.request('GET', `${one}/appeals/${theirs.id}`)).body.data.documents, [doc]);
  t.same((await server.request('GET', docs)).body.data, [doc]);

  // The complainant appeals too, then may not touch the owner's document.
  const mine = (await postAppeal(one, { description: 'mine' }, token, 'broker1')).body.data;
  t.equal(mine.author, 'complaint_owner');
  t.same(
    reply(await server.request('PATCH', `${docs}/${doc.id}`, { key: 'broker1', token, body: { data: { title: 'y' } } })),
    error(403, 'url', 'role', 'Can update document only author'),
  );
  const renamed = await server.request('PATCH', `${docs}/${doc.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { title: 'y.p7s' } },
  });
  t.equal(renamed.status, 200, renamed.text);
  t.equal(renamed.body.data.title, 'y.p7s');
  const version = await server.request('PUT', `${docs}/${doc.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: signedDocument() },
  });
  t.equal(version.status, 200, version.text);
  t.equal(version.body.data.author, 'tender_owner', 'a new version keeps its author');
});

t.test('appeals of award and cancellation complaints, each brought there over HTTP; a final tender refuses them', async (t) => {
  // An award complaint of a negotiation: made, paid, accepted and satisfied.
  const { tender: negotiation, award } = await awardedNegotiation(server);
  const awardComplaints = complaintsPath(negotiation, `/awards/${award.id}`);
  const onAward = await postComplaint(server, awardComplaints, aComplaint([anObjection('award', award.id)]));
  const awardOne = `${awardComplaints}/${onAward.body.data.id}`;
  t.equal((await patchComplaint(server, awardOne, { status: 'pending' }, 'bot')).status, 200);
  await decide(awardOne, 'satisfied');

  // A cancellation complaint of a tender whose cancellation waits out its complaint period: made, paid, declined.
  const tender = await complainableTender(server);
  const cancellation = (await postCancellation(server, tender, aCancellation())).body.data;
  await uploadCancellationDocument(server, tender, cancellation.id);
  const pending = await patchCancellation(server, tender, cancellation.id, { status: 'pending' });
  t.equal(pending.status, 200, pending.text);
  const cancellationComplaints = complaintsPath(tender, `/cancellations/${cancellation.id}`);
  const onCancellation = await postComplaint(server, cancellationComplaints, aComplaint([anObjection('cancellation', cancellation.id)]));
  const cancellationOne = `${cancellationComplaints}/${onCancellation.body.data.id}`;
  t.equal((await patchComplaint(server, cancellationOne, { status: 'pending' }, 'bot')).status, 200);
  await decide(cancellationOne, 'declined');

  for (const [one, owner] of [
    [awardOne, negotiation],
    [cancellationOne, tender],
  ] as const) {
    const made = await postAppeal(one, { description: 'Test appeal', documents: [signedDocument()] }, owner.token);
    t.equal(made.status, 201, made.text);
    t.match(made.body.data, { author: 'tender_owner', documents: [{ author: 'tender_owner' }] });
    t.ok(made.body.data.documents[0].url.includes(`${one}/appeals/${made.body.data.id}/documents/`), 'listed under its appeal');
    t.same((await server.request('GET', `${one}/appeals`)).body.data, [made.body.data]);
  }

  // The declined complaint no longer holds the cancellation: at its period's end the tender is cancelled, and final.
  server.clock.set(new Date(Date.parse(pending.body.data.complaintPeriod.endDate) + 60_000));
  await runChronograph(server, tender.id);
  t.equal((await getTender(server, tender)).status, 'cancelled');
  t.same(
    reply(await postAppeal(cancellationOne, { description: 'late' }, tender.token)),
    error(403, 'body', 'data', "Can't submit or edit appeal in current (cancelled) tender status"),
  );
});

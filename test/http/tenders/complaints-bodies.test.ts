import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { getTender, plant } from '../../fixtures/cancellations';
import { aComplaint, anObjection, complainableTender, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';
import { uploadDocument } from '../../fixtures/frameworks';

/**
 * What a complaint's bodies may carry (docs/tenders.md §Complaints): the recordings' objection errors
 * (`complaint-objections-invalid-*.http`), the state's refusals, and hostile bodies — each a 4xx, nothing stored.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });
const post = (path: string, data: unknown, key = 'broker1') => server.request('POST', path, { key, body: { data } });

t.test('the recordings: empty arguments or requested remedies', async (t) => {
  const tender = await complainableTender(server);
  const before = await getTender(server, tender);
  t.same(
    reply(await post(complaintsPath(tender), aComplaint([anObjection('tender', tender.id, { arguments: [] })]))),
    error(422, 'body', 'objections', [{ arguments: ['Please provide at least 1 item.'] }]),
  );
  t.same(
    reply(await post(complaintsPath(tender), aComplaint([anObjection('tender', tender.id, { requestedRemedies: [] })]))),
    error(422, 'body', 'objections', [{ requestedRemedies: ['Please provide at least 1 item.'] }]),
  );
  t.same(await getTender(server, tender), before, 'nothing stored');
});

t.test("the objection models' and the state's checks", async (t) => {
  const tender = await complainableTender(server);
  const path = complaintsPath(tender);
  const cases: [string, unknown, unknown][] = [
    [
      'a classification of another scheme',
      aComplaint([anObjection('tender', tender.id, { classification: { scheme: 'amcu', id: 'corruptionDescription', description: 'x' } })]),
      error(422, 'body', 'objections', [{ classification: { id: ['Value must be one of amcu reasons'] } }]),
    ],
    [
      'an evidence naming no document',
      aComplaint([
        anObjection('tender', tender.id, {
          arguments: [{ description: 'a', evidences: [{ title: 'e', relatedDocument: 'f'.repeat(32) }] }],
        }),
      ]),
      error(422, 'body', 'objections', [
        { arguments: [{ evidences: [{ relatedDocument: ['relatedDocument should be one of complaint documents'] }] }] },
      ]),
    ],
    [
      'no sequence number',
      aComplaint([{ ...anObjection('tender', tender.id), sequenceNumber: undefined }]),
      error(422, 'body', 'objections', 'sequenceNumber field is required'),
    ],
    [
      'two arguments',
      aComplaint([anObjection('tender', tender.id, { arguments: [{ description: 'a' }, { description: 'b' }] })]),
      error(422, 'body', 'data', "Can't add more than 1 argument for objection"),
    ],
    [
      'another tender',
      aComplaint([anObjection('tender', 'a'.repeat(32))]),
      error(422, 'body', 'objections.relatedItem', 'Invalid tender id'),
    ],
    ['an unknown lot', aComplaint([anObjection('lot', 'a'.repeat(32))]), error(422, 'body', 'objections.relatedItem', 'Invalid lot id')],
    [
      'a lot of a complaint without relatedLot',
      aComplaint([anObjection('lot', tender.data.lots[0].id)]),
      error(
        422,
        'body',
        'objections.relatedItem',
        "Complaint's objection must relate to the same lot id as mentioned in complaint's relatedLot",
      ),
    ],
    [
      'an award objection on the tender',
      aComplaint([anObjection('award', 'a'.repeat(32))]),
      error(422, 'body', 'objections', [{ relatesTo: ["Value must be one of ['tender', 'lot']."] }]),
    ],
    [
      'an unknown relatedLot',
      aComplaint(undefined, { relatedLot: 'a'.repeat(32) }),
      error(422, 'body', 'relatedLot', ['relatedLot should be one of lots']),
    ],
    ['no type', aComplaint(undefined, { type: undefined }), error(422, 'body', 'type', ['This field is required.'])],
    ['a claim', aComplaint(undefined, { type: 'claim' }), error(422, 'body', 'type', ["Value must be one of ['complaint']."])],
    ['a server-set member', aComplaint(undefined, { value: { amount: 1, currency: 'UAH' } }), error(422, 'body', 'value', 'Rogue field')],
    ['a token', aComplaint(undefined, { owner_token: 'x' }), error(422, 'body', 'owner_token', 'Rogue field')],
  ];
  const before = await getTender(server, tender);
  for (const [what, body, expected] of cases) t.same(reply(await post(path, body)), expected, what);
  t.same(await getTender(server, tender), before, 'nothing stored');
});

t.test('hostile bodies: 4xx, never 5xx, nothing stored', async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  const before = await getTender(server, tender);
  const bodies: unknown[] = [
    null,
    [],
    'x',
    { objections: 'x' },
    { objections: [null] },
    { objections: [{ classification: { scheme: 'nope' } }] },
    { author: { identifier: { id: 1 } } },
    { title: { $gt: '' } },
    { objections: [anObjection('tender', tender.id, { sequenceNumber: -1 })] },
    { objections: Array.from({ length: 101 }, () => anObjection('tender', tender.id)) },
  ];
  for (const data of bodies) {
    const res = await post(complaintsPath(tender), data);
    t.ok(res.status >= 400 && res.status < 500, `POST ${JSON.stringify(data)?.slice(0, 60)}: ${res.status}`);
    for (const [key, token] of [
      ['broker1', made.body.access.token],
      ['bot', undefined],
      ['reviewer', undefined],
    ] as const) {
      const patched = await patchComplaint(server, one, data, key, token);
      t.ok(patched.status >= 400 && patched.status < 500, `PATCH by ${key}: ${patched.status}`);
    }
  }
  // A `__proto__` member never reaches the complaint: an empty change of the draft, nothing stored.
  const raw = await server.request('PATCH', `${one}?acc_token=${made.body.access.token}`, {
    key: 'broker1',
    raw: '{"data": {"__proto__": {"status": "pending"}}}',
  });
  t.equal(raw.body.data.status, 'draft', raw.text);
  t.same(await getTender(server, tender), before, 'nothing stored');
});

t.test('the complainant edits its draft; the author may not become another organization', async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  const token = made.body.access.token;
  const edited = await patchComplaint(server, one, { title: 'Інша назва' }, 'broker1', token);
  t.equal(edited.body.data.title, 'Інша назва');
  const author = { ...made.body.data.author, identifier: { ...made.body.data.author.identifier, id: '99999999' } };
  t.same(
    reply(await patchComplaint(server, one, { author }, 'broker1', token)),
    error(403, 'body', 'data', "Can't change complaint author id"),
  );
});

t.test('the state refuses: config, restricted, tender status, pending cancellation', async (t) => {
  const off = await complainableTender(server, { hasTenderComplaints: false });
  t.same(
    reply(await post(complaintsPath(off), aComplaint(undefined))),
    error(403, 'body', 'data', "Can't add complaint as it is forbidden by configuration"),
  );
  const restricted = await complainableTender(server, { restricted: true });
  t.same(
    reply(await post(complaintsPath(restricted), aComplaint(undefined))),
    error(403, 'body', 'data', "Can't add complaint for restricted tender"),
  );
  const later = await complainableTender(server);
  await plant(server, later.id, (d) => (d.status = 'active.qualification'));
  t.same(
    reply(await post(complaintsPath(later), aComplaint(undefined))),
    error(403, 'body', 'data', "Can't add complaint in current (active.qualification) tender status"),
  );
  const cancelling = await complainableTender(server);
  await plant(
    server,
    cancelling.id,
    (d) => (d.cancellations = [{ id: 'c'.repeat(32), status: 'pending', reason: 'r', cancellationOf: 'tender', date: d.date }]),
  );
  t.same(
    reply(await post(complaintsPath(cancelling), aComplaint(undefined))),
    error(403, 'body', 'data', "Can't add complaint if tender have cancellation in pending status"),
  );
});

t.test("a complaint's documents: the complainant's while a draft, then the review body's; each records its author", async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  const token = made.body.access.token;
  const mine = await uploadDocument(server, `${one}/documents`, { key: 'broker1', token });
  t.equal(mine.status, 201, mine.text);
  t.match(mine.body.data, { author: 'complaint_owner', documentOf: 'tender', confidentiality: 'public' });
  const evidence = { description: 'a', evidences: [{ title: 'e', relatedDocument: mine.body.data.id }] };
  const withEvidence = await patchComplaint(
    server,
    one,
    { objections: [anObjection('tender', tender.id, { arguments: [evidence] })] },
    'broker1',
    token,
  );
  t.equal(withEvidence.status, 200, withEvidence.text);
  t.same(
    reply(await uploadDocument(server, `${one}/documents`, { key: 'reviewer' })),
    error(403, 'body', 'data', "Can't add document in current (draft) complaint status"),
  );
  t.same(reply(await uploadDocument(server, `${one}/documents`, { key: 'broker2' })), error(403, 'url', 'permission', 'Forbidden'));
  await patchComplaint(server, one, { status: 'pending' }, 'bot');
  t.same(
    reply(await uploadDocument(server, `${one}/documents`, { key: 'broker1', token })),
    error(403, 'body', 'data', 'Can submit or edit document not related to post in current (pending) complaint status for complaint_owner'),
  );
  const decision = await uploadDocument(server, `${one}/documents`, { key: 'reviewer' });
  t.equal(decision.status, 201, decision.text);
  t.equal(decision.body.data.author, 'aboveThresholdReviewers');
  const list = await server.request('GET', `${one}/documents`);
  t.same(
    list.body.data.map((d: { author: string }) => d.author),
    ['complaint_owner', 'aboveThresholdReviewers'],
  );
});

import t from 'tap';
import { decision, patchAward, signContract, tenderInQualification } from '../../fixtures/awards';
import { updateOf } from '../../../src/domain/save-rules';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';

/** docs/relocation.md §Contract credentials, §Older contracting calls. */
let server: TestServer;
let tender: { id: string; token: string };
let bid: { id: string; token: string };
let contractId: string;
t.before(async () => {
  server = await startTestServer();
  const q = await tenderInQualification(server);
  tender = q.tender;
  await patchAward(server, tender, q.data.awards[0].id, decision('active', true, false));
  bid = q.bids.find((b) => b.id === q.data.awards[0].bid_id)!;
  contractId = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0].id;
});
t.teardown(() => server.close());

const credentials = (key: string | undefined, token: string | undefined, id = contractId) =>
  server.request('PATCH', `/api/2.5/contracts/${id}/credentials`, { key, token });

t.test('PATCH /contracts/{id}/credentials by the tender owner → the contract with a new token and transfer', async (t) => {
  t.match(await credentials('broker1', tender.token), error(403, 'url', 'permission', 'Forbidden'), 'another broker');
  t.match(await credentials('broker', bid.token), error(403, 'url', 'permission', 'Forbidden'), "the bid's token");
  t.match(await credentials(undefined, tender.token), error(403, 'url', 'permission', 'Forbidden'), 'anonymous');
  t.match(await credentials('broker', tender.token, 'f'.repeat(32)), error(404, 'url', 'contract_id', 'Not Found'));
  const first = await credentials('broker', tender.token);
  t.equal(first.status, 200);
  t.match(first.body, { data: { id: contractId, status: 'pending', owner: 'broker' }, config: { restricted: false } });
  t.match(first.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });

  // The tender's token still asks for credentials; each answer's token replaces the one before.
  const second = await credentials('broker', tender.token);
  t.equal(second.status, 200);
  const buyer = (token: string) =>
    server.request('PUT', `/api/2.5/contracts/${contractId}/buyer/signer_info`, { key: 'broker', token, body: { data: { name: 'x' } } });
  t.match(await buyer(first.body.access.token), error(403, 'url', 'permission', 'Forbidden'));
  t.equal((await buyer(second.body.access.token)).status, 422, 'the owner check passes; the signer is incomplete');

  const signed = await signContract(server, { id: tender.id, token: second.body.access.token }, contractId, bid, 'broker2');
  t.equal(signed.status, 200, signed.text);
  t.equal((await credentials('broker', tender.token)).status, 200, 'an active contract too');

  // A final contract gets none (the status planted: terminating is not this test's subject).
  const session = server.store.session();
  const stored = (await session.get('contracts', contractId))!;
  await session.commit([updateOf(stored, { ...stored.doc, data: { ...stored.doc.data, status: 'terminated' } })]);
  t.match(
    await credentials('broker', tender.token),
    error(403, 'body', 'data', "Can't generate credentials in current (terminated) contract status"),
  );
});

t.test('GET /tenders/{id}/extract_credentials: the contracting system only', async (t) => {
  const read = (key?: string) => server.request('GET', `/api/2.5/tenders/${tender.id}/extract_credentials`, { key });
  t.match(await read('broker'), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await read(), error(403, 'url', 'permission', 'Forbidden'));
  const answer = await read('contracting');
  t.equal(answer.status, 200);
  t.same(Object.keys(answer.body.data).sort(), ['id', 'owner', 'tender_token']);
  t.match(answer.body.data, { id: tender.id, owner: 'broker', tender_token: /^[0-9a-f]{64}$/ });
  t.match(
    await server.request('GET', `/api/2.5/tenders/${'f'.repeat(32)}/extract_credentials`, { key: 'contracting' }),
    error(404, 'url', 'tender_id', 'Not Found'),
  );
});

t.test("the tender's own contract calls of the old contracting → the reference's 403", async (t) => {
  const path = `/api/2.5/tenders/${tender.id}/contracts/${contractId}`;
  const patch = (key?: string) => server.request('PATCH', path, { key, token: tender.token, body: { data: { status: 'active' } } });
  t.match(await patch('broker'), error(403, 'body', 'data', 'update is forbidden for contract'));
  t.match(await patch(), error(403, 'url', 'permission', 'Forbidden'));
  t.match(
    await server.request('PATCH', `/api/2.5/tenders/${tender.id}/contracts/${'f'.repeat(32)}`, { key: 'broker', body: { data: {} } }),
    error(404, 'url', 'contract_id', 'Not Found'),
  );
  const doc = { title: 'c.pdf', url: 'https://ds.example/1', hash: 'md5:' + '0'.repeat(32), format: 'application/pdf' };
  t.match(
    await server.request('POST', `${path}/documents`, { key: 'broker', token: tender.token, body: { data: doc } }),
    error(403, 'body', 'data', 'add is forbidden for contract document'),
  );
  t.match(await server.request('POST', `${path}/documents`, { body: { data: doc } }), error(403, 'url', 'permission', 'Forbidden'));
});

import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCompetitiveOrderingTender,
  aContract,
  competitiveOrderingConfig,
  createLottedTender,
  createTender,
  insertAgreement,
} from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const RATIONALE = 'Опис причини змін контракту';

/** An active contract (dateSigned 2026-10-01) with its owner token, of a restricted tender when asked. */
async function activeContract(restricted = false): Promise<{ id: string; token: string }> {
  const tender = restricted
    ? await createTender(
        server,
        aCompetitiveOrderingTender(await insertAgreement(server, { restricted: true })),
        competitiveOrderingConfig({ restricted: true }),
      )
    : await createLottedTender(server);
  const created = await server.request('POST', '/api/2.5/contracts', { key: 'contracting', body: { data: aContract(tender.id) } });
  const contract = { id: created.body.data.id as string, token: created.body.access.token as string };
  const activated = await server.request('PATCH', `/api/2.5/contracts/${contract.id}`, {
    key: 'broker',
    token: contract.token,
    body: { data: { status: 'active', dateSigned: '2026-10-01T00:00:00+03:00' } },
  });
  if (activated.status !== 200) throw new Error(activated.text);
  return contract;
}

const changes = (contract: { id: string }, changeId?: string) =>
  `/api/2.5/contracts/${contract.id}/changes${changeId ? `/${changeId}` : ''}`;
const post = (contract: { id: string; token: string }, data: unknown, token = contract.token) =>
  server.request('POST', changes(contract), { key: 'broker', token, body: { data } });
const patch = (contract: { id: string; token: string }, changeId: string, data: unknown) =>
  server.request('PATCH', changes(contract, changeId), { key: 'broker', token: contract.token, body: { data } });

t.test('propose, edit and apply a change (add-contract-change, patch-contract-change, apply-contract-change)', async (t) => {
  const contract = await activeContract();
  const added = await post(contract, {
    rationale: RATIONALE,
    rationale_en: 'Contract change cause',
    rationaleTypes: ['volumeCuts', 'priceReductionWithoutQuantity'],
  });
  t.equal(added.status, 201, added.text);
  const change = added.body.data;
  t.same(change, {
    rationale: RATIONALE,
    rationale_en: 'Contract change cause',
    rationaleTypes: ['volumeCuts', 'priceReductionWithoutQuantity'],
    id: change.id,
    status: 'pending',
    date: '2026-10-05T12:00:00+03:00',
  });
  t.equal(added.headers.get('location'), `${server.url}${changes(contract, change.id)}`);
  t.match(
    await post(contract, { rationale: 'ще одна', rationaleTypes: ['volumeCuts'] }),
    error(403, 'body', 'data', "Can't create new contract change while any (pending) change exists"),
  );

  const edited = await patch(contract, change.id, { rationale: 'Друга і третя поставка має бути розфасована' });
  t.same(edited.body.data, { ...change, rationale: 'Друга і третя поставка має бути розфасована' });
  t.match(
    await patch(contract, change.id, { status: 'active' }),
    error(403, 'body', 'data', "Can't update contract change status. 'dateSigned' is required."),
  );
  t.match(
    await patch(contract, change.id, { status: 'active', dateSigned: '2026-09-01T00:00:00+03:00' }),
    error(
      403,
      'body',
      'data',
      "Change dateSigned (2026-09-01T00:00:00+03:00) can't be earlier than contract dateSigned (2026-10-01T00:00:00+03:00)",
    ),
  );

  server.clock.advance(60_000);
  const applied = await patch(contract, change.id, { status: 'active', dateSigned: '2026-10-05T12:00:00+03:00' });
  t.equal(applied.status, 200, applied.text);
  t.same(applied.body.data, {
    ...edited.body.data,
    status: 'active',
    date: '2026-10-05T12:01:00+03:00',
    dateSigned: '2026-10-05T12:00:00+03:00',
  });
  t.match(
    await patch(contract, change.id, { rationale: 'пізно' }),
    error(403, 'body', 'data', "Can't update contract change in current (active) status"),
  );

  t.same((await server.request('GET', changes(contract))).body.data, [applied.body.data]);
  t.same((await server.request('GET', changes(contract, change.id))).body.data, applied.body.data);
  t.match(await server.request('GET', changes(contract, 'f'.repeat(32))), error(404, 'url', 'change_id', 'Not Found'));

  const next = await post(contract, {
    rationale: 'наступна',
    rationaleTypes: ['durationExtension'],
    dateSigned: '2026-10-04T00:00:00+03:00',
  });
  t.match(
    next,
    error(
      403,
      'body',
      'data',
      "Change dateSigned (2026-10-04T00:00:00+03:00) can't be earlier than last active change dateSigned (2026-10-05T12:00:00+03:00)",
    ),
  );
});

t.test('refused changes answer the reference errors and store nothing', async (t) => {
  const contract = await activeContract();
  const before = (await server.request('GET', `/api/2.5/contracts/${contract.id}`, { key: 'broker' })).body;
  t.match(await post(contract, { rationale: RATIONALE, rationaleTypes: ['taxRate', 'priceReduction'] }), {
    status: 422,
    body: {
      errors: [
        {
          location: 'body',
          name: 'rationaleTypes',
          description: [/^Value must be one of \('durationExtension', .*'emergencyElectricitySupply'\)\.$/],
        },
      ],
    },
  });
  t.match(await post(contract, { rationale: RATIONALE }), error(422, 'body', 'rationaleTypes', ['This field is required.']));
  t.match(
    await post(contract, { rationale: RATIONALE, rationaleTypes: [] }),
    error(422, 'body', 'rationaleTypes', ['Please provide at least 1 item.']),
  );
  t.match(
    await post(contract, { rationale: RATIONALE, rationaleTypes: ['volumeCuts'] }, 'f'.repeat(32)),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  t.same((await server.request('GET', `/api/2.5/contracts/${contract.id}`, { key: 'broker' })).body, before);

  const tender = await createLottedTender(server);
  const pending = await server.request('POST', '/api/2.5/contracts', { key: 'contracting', body: { data: aContract(tender.id) } });
  const pendingContract = { id: pending.body.data.id, token: pending.body.access.token };
  t.match(
    await post(pendingContract, { rationale: RATIONALE, rationaleTypes: ['volumeCuts'] }),
    error(403, 'body', 'data', "Can't add contract change in current (pending) contract status"),
  );
  t.match(
    await post(pendingContract, { rationale: RATIONALE, rogue: 'x' }),
    error(422, 'body', 'rogue', 'Rogue field'),
    'the body is validated before the status, as the reference (docs/contracts.md §Contract changes)',
  );
});

t.test('a change: unknown → 404 before the owner is judged; the body is validated before the statuses', async (t) => {
  const contract = await activeContract();
  const unknown = 'f'.repeat(32);
  t.match(
    await server.request('PATCH', changes(contract, unknown), { key: 'broker1', body: { data: { rationale: 'x' } } }),
    error(404, 'url', 'change_id', 'Not Found'),
  );
  const added = (await post(contract, { rationale: RATIONALE, rationaleTypes: ['volumeCuts'] })).body.data;
  t.match(
    await server.request('PATCH', changes(contract, added.id), { key: 'broker1', body: { data: { rationale: 'x' } } }),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  t.equal((await patch(contract, added.id, { status: 'active', dateSigned: '2026-10-02T00:00:00+03:00' })).status, 200);
  t.match(await patch(contract, added.id, { rogue: 'x' }), error(422, 'body', 'rogue', 'Rogue field'));
  t.match(
    await patch(contract, added.id, { rationale: 'x' }),
    error(403, 'body', 'data', "Can't update contract change in current (active) status"),
  );
});

t.test("a restricted contract's change rationale is hidden from readers without access, as on the contract", async (t) => {
  const contract = await activeContract(true);
  await post(contract, { rationale: RATIONALE, rationale_en: 'cause', rationaleTypes: ['volumeCuts'] });
  for (const key of [undefined, 'broker1']) {
    const [seen] = (await server.request('GET', changes(contract), { key })).body.data;
    t.match(seen, { rationale: 'Приховано', rationale_en: 'Приховано', rationaleTypes: ['volumeCuts'] }, `key ${key ?? 'none'}`);
  }
  for (const key of ['broker', 'brokerr']) {
    const [seen] = (await server.request('GET', changes(contract), { key })).body.data;
    t.equal(seen.rationale, RATIONALE, `whole for ${key}`);
  }
});

import t from 'tap';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { aSigner, decision, patchAward, signContract, tenderInQualification } from '../../fixtures/awards';
import type { TenderingOptions } from '../../fixtures/tenders';

const DAY = 24 * 3600_000;
const HIDDEN = 'Приховано';

/** A tender whose (first) award is active: its pending contract, the winning bid, the tender. */
async function awarded(server: TestServer, options: TenderingOptions) {
  const co = options.procedure === 'competitiveOrdering';
  const { tender, bids, data } = await tenderInQualification(server, options);
  const res = await patchAward(server, tender, data.awards[0].id, decision('active', true, co));
  if (res.status !== 200) throw new Error(res.text);
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  return { tender, bid: bids[1], award: res.body.data, contract, path: `/api/2.5/contracts/${contract.id}` };
}

/** A unit priced with VAT, as a tender or a bid gives it. */
const unit = (amount: number) => ({ name: 'кілограм', code: 'KGM', value: { amount, currency: 'UAH', valueAddedTaxIncluded: true } });

/** A refused request leaves the contract and its tender as they were. */
async function refused(t: any, server: TestServer, tenderId: string, path: string, send: () => Promise<any>, expected: unknown) {
  const read = async () => [(await server.request('GET', path)).body, (await server.request('GET', `/api/2.5/tenders/${tenderId}`)).body];
  const before = await read();
  const res = await send();
  t.match({ status: res.status, body: res.body }, expected);
  t.same(await read(), before, 'the contract and the tender are unchanged');
}

t.test("the tender's contracts are listed and read; an unknown one is 404 contract_id", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, contract, award } = await awarded(server, { lots: 1 });
  t.match(contract, { status: 'pending', awardID: award.id, value: { amount: 440, amountNet: 440 }, items: [{ relatedLot: award.lotID }] });
  const one = await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts/${contract.id}`);
  t.same(one.body.data, contract);
  const unknown = await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts/${'f'.repeat(32)}`);
  t.match({ status: unknown.status, body: unknown.body }, errorReply(404, 'url', 'contract_id', 'Not Found'));
  const own = (await server.request('GET', `/api/2.5/contracts/${contract.id}`)).body;
  t.match(own, {
    data: { id: contract.id, contractID: contract.contractID, tender_id: tender.id, status: 'pending' },
    config: { restricted: false },
  });
  t.notOk(own.data.suppliers[0].contactPoint, "the contract's suppliers leave contactPoint, scale and id behind");
  t.notOk(own.data.buyer.kind);
});

t.test(
  "the contract takes the winning bid's items (its unit price 90.0, not the tender's 100.0), the lot's title and description, and the tender's milestones",
  async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    const { contract, path } = await awarded(server, {
      lots: 1,
      item: { unit: unit(100) },
      lowerBid: (tender) => ({ items: [{ id: tender.data.items[0].id, description: 'футляри для біда', quantity: 4, unit: unit(90) }] }),
    });
    const own = (await server.request('GET', path)).body.data;
    for (const [where, made] of [
      ["tender's copy", contract],
      ['contract', own],
    ]) {
      t.match(made.items, [{ description: 'футляри для біда', quantity: 4, unit: { code: 'KGM', value: { amount: 90 } } }], where);
      t.match(made, { title: 'Лот 1', description: 'Опис лоту' }, where);
    }
    t.match((await server.request('GET', path)).text, /"unit":\{[^}]*"value":\{"amount":90\.0,/, 'the unit price is a float');
    t.same(
      own.milestones.map((m: any) => [m.title, m.status, 'relatedLot' in m]),
      [
        ['signingTheContract', 'scheduled', false],
        ['deliveryOfGoods', 'scheduled', false],
      ],
    );
    t.notOk(contract.milestones, "the tender's copy carries no milestones");
  },
);

/** A criterion of the owner's: one group of `requirements` per entry of `groups`, about `relatesTo` (and an item). */
const criterion = (classification: string, relatesTo: string, groups: Record<string, unknown>[][], relatedItem?: string) => ({
  title: `Критерій ${classification}`,
  source: 'tenderer',
  relatesTo,
  ...(relatedItem ? { relatedItem } : {}),
  classification: { scheme: 'ESPD211', id: classification },
  requirementGroups: groups.map((requirements, i) => ({ description: `Група ${i + 1}`, requirements })),
});

t.test(
  "the winner's answers to its lot's item criteria become the contract items' attributes; other answers and items get none",
  async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    const KGM = { name: 'кілограми', code: 'KGM' };
    const { contract, path, tender } = await awarded(server, {
      lots: 2,
      criteria: (draft) => [
        ...draft.data.items.map((item: any) =>
          criterion(
            'CRITERION.OTHER.SUBJECT_OF_PROCUREMENT.TECHNICAL_FEATURES',
            'item',
            [
              [
                { title: 'Форма випуску', dataType: 'string' },
                { title: 'Доза діючої речовини', dataType: 'number', unit: KGM },
              ],
              [{ title: 'Інша форма', dataType: 'string' }],
            ],
            item.id,
          ),
        ),
        criterion('CRITERION.OTHER.BID.LANGUAGE', 'tender', [[{ title: 'Мова', dataType: 'boolean' }]]),
      ],
      lowerBid: (tender) => ({
        requirementResponses: tender.data.criteria.flatMap((c: any) => {
          const [form, dose] = c.requirementGroups[0].requirements;
          return c.relatesTo === 'item'
            ? [
                { requirement: { id: form.id }, values: ['Розчин для інфузій'] },
                { requirement: { id: dose.id }, value: '5' },
              ]
            : [{ requirement: { id: form.id }, value: true }];
        }),
      }),
    });
    const own = (await server.request('GET', path)).body.data;
    const [lot1, lot2] = tender.data.lots.map((l: any) => tender.data.items.find((i: any) => i.relatedLot === l.id).id);
    for (const [where, made] of [
      ["tender's copy", contract],
      ['contract', own],
    ]) {
      t.same(
        made.items.map((i: any) => [i.id, i.attributes]),
        [
          [
            lot1,
            [
              { name: 'Форма випуску', values: ['Розчин для інфузій'] },
              { name: 'Доза діючої речовини', value: 5, unit: KGM },
            ],
          ],
        ],
        `${where}: the awarded lot's item only (not ${lot2}), its answered requirements, the value as the requirement's type`,
      );
    }
  },
);

t.test("without lots: the tender's title; an item the bid quantifies as 0 is left out", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { contract, path } = await awarded(server, {
    lots: 0,
    lowerBid: (tender) => ({ items: [{ id: tender.data.items[0].id, quantity: 0 }] }),
  });
  const own = (await server.request('GET', path)).body.data;
  for (const made of [contract, own]) {
    t.equal(made.title, 'футляри до державних нагород');
    t.notOk('description' in made, 'the tender has no description');
    t.same(made.items ?? [], []);
  }
});

t.test('signers: each side names its own, only while the contract is pending', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, bid, path } = await awarded(server, { lots: 0 });
  await refused(
    t,
    server,
    tender.id,
    path,
    () => server.request('PUT', `${path}/suppliers/signer_info`, { key: 'broker', token: tender.token, body: { data: aSigner() } }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  await refused(
    t,
    server,
    tender.id,
    path,
    () => server.request('PUT', `${path}/buyer/signer_info`, { key: 'broker2', token: bid.token, body: { data: aSigner() } }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  await refused(
    t,
    server,
    tender.id,
    path,
    () => server.request('PUT', `${path}/buyer/signer_info`, { key: 'broker', token: tender.token, body: { data: { name: 'Лише ім’я' } } }),
    { status: 422, body: { errors: [{ location: 'body', name: 'email' }] } },
  );
  await refused(
    t,
    server,
    tender.id,
    path,
    () => server.request('PATCH', path, { key: 'broker', token: tender.token, body: { data: { status: 'active' } } }),
    errorReply(422, 'body', 'data', 'signerInfo field for buyer and suppliers is required for contract in `active` status'),
  );
  const put = await server.request('PUT', `${path}/suppliers/signer_info`, { key: 'broker2', token: bid.token, body: { data: aSigner() } });
  t.same(put.body.data, aSigner());
  t.equal((await signContract(server, tender, path.split('/').at(-1)!, bid, 'broker2')).status, 200);
  await refused(
    t,
    server,
    tender.id,
    path,
    () => server.request('PUT', `${path}/buyer/signer_info`, { key: 'broker', token: tender.token, body: { data: aSigner() } }),
    errorReply(403, 'body', 'data', "Can't update contract signerInfo in current (active) status"),
  );
});

t.test('belowThreshold signing: value, amountNet and dateSigned as the reference checks them', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, bid, award, contract, path } = await awarded(server, { lots: 1 });
  const patch = (data: unknown) => () => server.request('PATCH', path, { key: 'broker', token: tender.token, body: { data } });
  await refused(
    t,
    server,
    tender.id,
    path,
    patch({ value: { amount: 430 } }),
    errorReply(403, 'body', 'value', 'Amount should be equal or greater than amountNet and differ by no more than 20.0%'),
  );
  await refused(
    t,
    server,
    tender.id,
    path,
    patch({ value: { amount: 441, amountNet: 441 } }),
    errorReply(403, 'body', 'value', 'Amount should be less or equal to awarded amount'),
  );
  await refused(
    t,
    server,
    tender.id,
    path,
    patch({ dateSigned: award.complaintPeriod.startDate }),
    errorReply(422, 'body', 'dateSigned', [
      `Contract signature date should be after award activation date (${award.complaintPeriod.startDate})`,
    ]),
  );
  const signed = await signContract(server, tender, contract.id, bid, 'broker2', {
    value: { amount: 430, amountNet: 430 },
    period: { startDate: '2026-11-01T00:00:00+02:00', endDate: '2026-12-01T00:00:00+02:00' },
  });
  t.equal(signed.status, 200, 'signed at once: belowThreshold does not wait for the stand-still');
  t.match(signed.body.data, { status: 'active', dateSigned: award.complaintPeriod.startDate, value: { amount: 430 } });
  const copy = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts/${contract.id}`)).body.data;
  t.match(copy, { status: 'active', value: { amount: 430, amountNet: 430 } }, "the tender's copy follows status and value");
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.status, 'complete');
});

t.test(
  "the owner PATCHes a pending contract's items: the tender's copy follows; the item rules run after the status and before the award's, the prices before the signers",
  async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    const { tender, bid, contract, path } = await awarded(server, {
      lots: 1,
      item: { unit: unit(100) },
      lowerBid: (tender) => ({ items: [{ id: tender.data.items[0].id, quantity: 4, unit: unit(90) }] }),
    });
    const patch = (data: unknown) => () => server.request('PATCH', path, { key: 'broker', token: tender.token, body: { data } });
    const item = contract.items[0];
    const res = await patch({ items: [{ ...item, quantity: 5 }] })();
    t.equal(res.status, 200);
    const copy = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts/${contract.id}`)).body.data;
    t.same(copy.items, res.body.data.items, "the tender's copy follows the items");
    const { id: _id, ...another } = item;
    await refused(
      t,
      server,
      tender.id,
      path,
      patch({ value: { amount: 441, amountNet: 441 }, items: [item, another] }),
      errorReply(403, 'body', 'data', "Can't change items list length"),
    );
    await refused(
      t,
      server,
      tender.id,
      path,
      patch({ status: 'active' }),
      errorReply(
        422,
        'body',
        'items',
        'Total amount of unit values must be no more than contract.value.amount and no less than net contract amount',
      ),
    );
    const signed = await signContract(server, tender, contract.id, bid, 'broker2', { items: [{ ...item, quantity: 4.889 }] });
    t.equal(signed.status, 200, '4.889 × 90 = 440.01: the value, coins left out');
    t.match((await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts/${contract.id}`)).body.data, {
      status: 'active',
      items: [{ quantity: 4.889 }],
    });
  },
);

t.test('competitiveOrdering: no signature before the stand-still ends', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, bid, award, contract, path } = await awarded(server, { procedure: 'competitiveOrdering', lots: 1 });
  const end = award.complaintPeriod.endDate;
  const early = await signContract(server, tender, contract.id, bid, 'broker2');
  t.match(
    { status: early.status, body: early.body },
    errorReply(403, 'body', 'data', `Can't sign contract before stand-still period end (${end})`),
  );
  t.equal((await server.request('GET', path)).body.data.status, 'pending');
  server.clock.set(new Date(Date.parse(end) + DAY));
  await refused(
    t,
    server,
    tender.id,
    path,
    () => server.request('PATCH', path, { key: 'broker', token: tender.token, body: { data: { dateSigned: end } } }),
    errorReply(422, 'body', 'dateSigned', [`Contract signature date should be after award complaint period end date (${end})`]),
  );
  t.equal((await signContract(server, tender, contract.id, bid, 'broker2')).status, 200);
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.status, 'complete');
});

t.test(
  'restricted competitiveOrdering: awards and contracts hidden from readers without access, in the tender, its sub-resources and the contract',
  async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    const { tender, contract, path } = await awarded(server, { procedure: 'competitiveOrdering', lots: 1, config: { restricted: true } });
    const anon = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
    t.equal(anon.awards[0].suppliers[0].name, HIDDEN);
    t.equal(anon.contracts[0].suppliers[0].identifier.id, HIDDEN);
    t.equal(anon.contracts[0].items[0].deliveryAddress.streetAddress, HIDDEN);
    t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/awards`)).body.data, anon.awards);
    t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/awards/${anon.awards[0].id}`)).body.data, anon.awards[0]);
    t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data, anon.contracts);
    t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts/${contract.id}`)).body.data, anon.contracts[0]);
    const object = await server.request('GET', path);
    t.match(
      object.body,
      { data: { suppliers: [{ name: HIDDEN }] }, config: { restricted: true } },
      'the contract object is restricted as the tender',
    );
    const owner = (await server.request('GET', `/api/2.5/tenders/${tender.id}`, { key: 'broker' })).body.data;
    t.equal(owner.awards[0].suppliers[0].name, 'Постачальник 2', 'the owner sees them whole');
  },
);

import t from 'tap';
import { tenderCheck } from '../../src/domain/tender/tender.check';

import { errorReply as error, startTestServer, type TestServer } from '../fixtures/server';
import { aCompetitiveOrderingTender, aLot, anItem, competitiveOrderingConfig, createTender, insertAgreement } from '../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const LOT = 'd'.repeat(32);
const lotted = (agreementId: string, overrides = {}) =>
  aCompetitiveOrderingTender(agreementId, { lots: [aLot({ id: LOT })], items: [anItem({ relatedLot: LOT })], ...overrides });
const activate = (id: string, token: string) =>
  server.request('PATCH', `/api/2.5/tenders/${id}`, { key: 'broker', token, body: { data: { status: 'active.tendering' } } });

const EXCLUSION_CRITERION = {
  title: 'Вчинення злочинів, учинених з корисливих мотивів',
  source: 'tenderer',
  relatesTo: 'tenderer',
  classification: { scheme: 'espd211', id: 'CRITERION.EXCLUSION.CONVICTIONS.FRAUD' },
  legislation: [
    {
      version: '2020-04-19',
      identifier: { id: '922-VIII', legalName: 'Закон', uri: 'https://zakon.rada.gov.ua/laws/show/922-19' },
      type: 'NATIONAL_LEGISLATION',
      article: '17.1.5',
    },
  ],
  requirementGroups: [
    { description: 'Учасник підтверджує, що', requirements: [{ title: 'Не засуджено', dataType: 'boolean', expectedValue: 'true' }] },
  ],
};

t.test('competitiveOrdering: agreement with 3 active contracts → tender → criteria → activate', async (t) => {
  const agreementId = await insertAgreement(server);
  const tender = await createTender(server, lotted(agreementId), competitiveOrderingConfig());
  t.match(tender.data, {
    status: 'draft',
    procurementMethod: 'selective',
    procurementMethodType: 'competitiveOrdering',
    agreements: [{ id: agreementId }],
    tenderPeriod: { startDate: '2026-10-05T12:00:00+03:00', endDate: '2026-10-20T00:00:00+03:00' },
    enquiryPeriod: {
      startDate: '2026-10-05T12:00:00+03:00',
      endDate: '2026-10-17T00:00:00+03:00',
      clarificationsUntil: '2026-10-20T00:00:00+03:00',
    },
  });

  const posted = await server.request('POST', `/api/2.5/tenders/${tender.id}/criteria`, {
    key: 'broker',
    token: tender.token,
    body: { data: [EXCLUSION_CRITERION] },
  });
  t.equal(posted.status, 201);
  t.match(posted.body.data[0], {
    id: /^[0-9a-f]{32}$/,
    classification: { id: 'CRITERION.EXCLUSION.CONVICTIONS.FRAUD' },
    requirementGroups: [
      { id: /^[0-9a-f]{32}$/, requirements: [{ id: /^[0-9a-f]{32}$/, status: 'active', datePublished: '2026-10-05T12:00:00+03:00' }] },
    ],
  });

  server.clock.advance(60_000);
  const res = await activate(tender.id, tender.token);
  server.clock.advance(-60_000);
  t.equal(res.status, 200);
  const d = res.body.data;
  t.match(d, {
    status: 'active.tendering',
    date: '2026-10-05T12:01:00+03:00',
    next_check: '2026-10-20T00:00:00+03:00',
    enquiryPeriod: { invalidationDate: '2026-10-05T12:01:00+03:00', clarificationsUntil: '2026-10-20T00:00:00+03:00' },
    lots: [{ status: 'active', auctionPeriod: { shouldStartAfter: '2026-10-20T00:00:00+03:00' } }],
  });
  const ids = d.criteria.map((c: any) => c.classification.id);
  t.same(
    ids,
    [
      'CRITERION.EXCLUSION.CONVICTIONS.FRAUD',
      'CRITERION.EXCLUSION.CONVICTIONS.PARTICIPATION_IN_CRIMINAL_ORGANISATION',
      'CRITERION.EXCLUSION.CONVICTIONS.CORRUPTION',
      'CRITERION.EXCLUSION.CONVICTIONS.CHILD_LABOUR-HUMAN_TRAFFICKING',
      'CRITERION.EXCLUSION.BUSINESS.BANKRUPTCY',
      'CRITERION.EXCLUSION.MISCONDUCT.MARKET_DISTORTION',
      'CRITERION.EXCLUSION.CONFLICT_OF_INTEREST.MISINTERPRETATION',
      'CRITERION.EXCLUSION.NATIONAL.OTHER',
      'CRITERION.OTHER.BID.LANGUAGE',
      'CRITERION.OTHER.CONTRACT.GUARANTEE',
    ],
    'the posted criterion is kept, every missing one of the spec list added once',
  );
  const bySource = Object.fromEntries(d.criteria.map((c: any) => [c.classification.id, c.source]));
  t.equal(bySource['CRITERION.EXCLUSION.MISCONDUCT.MARKET_DISTORTION'], 'procuringEntity');
  t.equal(bySource['CRITERION.OTHER.CONTRACT.GUARANTEE'], 'winner');
  const distortion = d.criteria.find((c: any) => c.source === 'procuringEntity');
  t.notOk('expectedValue' in distortion.requirementGroups[0].requirements[0], 'facts the procuring entity confirms carry no expectedValue');
  t.match(d.criteria[1], { relatesTo: 'tenderer', classification: { scheme: 'espd211' }, legislation: [{ type: 'NATIONAL_LEGISLATION' }] });

  const session = server.store.session();
  const changes = await tenderCheck(session, (await session.get('tenders', tender.id))!, new Date('2026-10-20T00:00:00+03:00'));
  await session.commit(changes);
  t.equal(
    (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.status,
    'unsuccessful',
    'no bids at tenderPeriod.endDate',
  );
});

t.test(
  'spec worked example: tenderPeriod to 2023-10-25T00:00+02:00 → enquiry end 2023-10-22, clarifications 2023-10-25, auction after 2023-10-26',
  async (t) => {
    const old = await startTestServer({ now: new Date('2023-10-10T01:00:00+03:00') });
    t.teardown(() => old.close());
    const agreementId = await insertAgreement(old);
    const tender = await createTender(
      old,
      lotted(agreementId, { tenderPeriod: { endDate: '2023-10-25T00:00:00+02:00' } }),
      competitiveOrderingConfig(),
    );
    t.same(tender.data.enquiryPeriod, {
      startDate: '2023-10-10T01:00:00+03:00',
      endDate: '2023-10-22T00:00:00+03:00',
      clarificationsUntil: '2023-10-25T00:00:00+03:00',
    });
    const res = await old.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
      key: 'broker',
      token: tender.token,
      body: { data: { status: 'active.tendering' } },
    });
    t.equal(res.body.data.lots[0].auctionPeriod.shouldStartAfter, '2023-10-26T00:00:00+03:00');
    t.equal(res.body.data.next_check, '2023-10-25T00:00:00+02:00');
  },
);

t.test('an agreement with fewer than 3 active contracts → 422 agreements, tender stays draft', async (t) => {
  const agreementId = await insertAgreement(server, { activeContracts: 2 });
  const tender = await createTender(server, lotted(agreementId), competitiveOrderingConfig());
  t.match(await activate(tender.id, tender.token), error(422, 'body', 'agreements', 'agreements[0] has less than 3 active contracts'));
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.status, 'draft');
});

t.test('an agreement that is not active → 422 "agreements[0] status is not active"', async (t) => {
  const agreementId = await insertAgreement(server, { status: 'terminated' });
  const tender = await createTender(server, lotted(agreementId), competitiveOrderingConfig());
  t.match(await activate(tender.id, tender.token), error(422, 'body', 'agreements', 'agreements[0] status is not active'));
});

t.test('an unknown agreement → 422 "agreement[0] not found in agreements"', async (t) => {
  const tender = await createTender(server, lotted('e'.repeat(32)), competitiveOrderingConfig());
  t.match(await activate(tender.id, tender.token), error(422, 'body', 'agreements', 'agreement[0] not found in agreements'));
});

t.test('an agreement of another procuring entity → 422 agreements', async (t) => {
  const agreementId = await insertAgreement(server, { identifierId: '99999999' });
  const tender = await createTender(server, lotted(agreementId), competitiveOrderingConfig());
  t.match(
    await activate(tender.id, tender.token),
    error(
      422,
      'body',
      'agreements',
      'tender.procuringEntity.identifier (scheme or id), doesnt match tender.agreements[0].procuringEntity.identifier (scheme of id)',
    ),
  );
});

t.test('no agreements → 422 agreements ["This field is required."]', async (t) => {
  const { agreements: _a, ...data } = aCompetitiveOrderingTender('x');
  const res = await server.request('POST', '/api/2.5/tenders', { key: 'broker', body: { data, config: competitiveOrderingConfig() } });
  t.match(res, error(422, 'body', 'agreements', ['This field is required.']));
});

t.test('a client enquiryPeriod → Rogue field', async (t) => {
  const res = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: {
      data: aCompetitiveOrderingTender('a'.repeat(32), { enquiryPeriod: { endDate: '2026-10-12T00:00:00+03:00' } }),
      config: competitiveOrderingConfig(),
    },
  });
  t.match(res, error(422, 'body', 'enquiryPeriod', 'Rogue field'));
});

t.test('two lots, as the reference takes them: created, activated, a third added while a draft', async (t) => {
  const agreementId = await insertAgreement(server);
  const [first, second] = ['1', '2'].map((c) => c.repeat(32));
  const data = aCompetitiveOrderingTender(agreementId, {
    lots: [aLot({ id: first }), aLot({ id: second, title: 'Лот 2' })],
    items: [anItem({ relatedLot: first }), anItem({ relatedLot: second })],
  });
  const tender = await createTender(server, data, competitiveOrderingConfig());
  t.equal(tender.data.lots.length, 2, 'both lots taken');
  const third = await server.request('POST', `/api/2.5/tenders/${tender.id}/lots`, {
    key: 'broker',
    token: tender.token,
    body: { data: aLot({ title: 'Лот 3' }) },
  });
  t.equal(third.status, 201, third.text);
  const item = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { items: [...tender.data.items, anItem({ relatedLot: third.body.data.id })] } },
  });
  t.equal(item.status, 200, item.text);
  const res = await activate(tender.id, tender.token);
  t.equal(res.status, 200, res.text);
  t.equal(res.body.data.lots.length, 3);
  t.ok(
    res.body.data.lots.every((l: any) => l.auctionPeriod?.shouldStartAfter),
    'each lot gets its auction',
  );
});

t.test('tenderPeriod shorter than 7 days → 422 tenderPeriod', async (t) => {
  const res = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: {
      data: aCompetitiveOrderingTender('a'.repeat(32), { tenderPeriod: { endDate: '2026-10-12T00:00:00+03:00' } }),
      config: competitiveOrderingConfig(),
    },
  });
  t.match(res, error(422, 'body', 'tenderPeriod', ['tenderPeriod must be at least 7 full calendar days long']));
});

t.test('config: hasPreSelectionAgreement false → "False is not one of [True]"', async (t) => {
  const res = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: { data: aCompetitiveOrderingTender('a'.repeat(32)), config: competitiveOrderingConfig({ hasPreSelectionAgreement: false }) },
  });
  t.match(res, error(422, 'body', 'hasPreSelectionAgreement', 'False is not one of [True]'));
});

t.test('in active.tendering a change must leave 4 days of tendering → 403', async (t) => {
  const agreementId = await insertAgreement(server);
  const tender = await createTender(server, lotted(agreementId), competitiveOrderingConfig());
  await activate(tender.id, tender.token);
  server.clock.set(new Date('2026-10-17T12:00:00+03:00'));
  const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { description: 'x' } },
  });
  server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
  t.match(res, error(403, 'body', 'data', 'tenderPeriod should be extended by 4 days'));
});

t.test('criteria posted after activation → 403', async (t) => {
  const agreementId = await insertAgreement(server);
  const tender = await createTender(server, lotted(agreementId), competitiveOrderingConfig());
  await activate(tender.id, tender.token);
  const res = await server.request('POST', `/api/2.5/tenders/${tender.id}/criteria`, {
    key: 'broker',
    token: tender.token,
    body: { data: [EXCLUSION_CRITERION] },
  });
  t.match(res, error(403, 'body', 'data', "Can't add criterion in current (active.tendering) tender status"));
});

t.test('a criterion without classification → 422 [{"classification": [...]}]', async (t) => {
  const agreementId = await insertAgreement(server);
  const tender = await createTender(server, lotted(agreementId), competitiveOrderingConfig());
  const { classification: _c, ...bad } = EXCLUSION_CRITERION;
  const res = await server.request('POST', `/api/2.5/tenders/${tender.id}/criteria`, {
    key: 'broker',
    token: tender.token,
    body: { data: [bad] },
  });
  t.match(res, error(422, 'body', '0', { classification: ['This field is required.'] }));
});

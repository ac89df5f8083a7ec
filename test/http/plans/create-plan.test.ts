import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aBudget, aPlan, planOrganization } from '../../fixtures/plans';
import { anItem } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const post = (data: unknown, key: string | undefined = 'broker') => server.request('POST', '/api/2.5/plans', { key, body: { data } });
/** Runs `body` with the server's clock at `at`, then puts it back. */
async function at<T>(when: string, body: () => Promise<T>): Promise<T> {
  const before = server.clock.now();
  server.clock.set(new Date(when));
  try {
    return await body();
  } finally {
    server.clock.set(before);
  }
}

t.test('a broker creates a plan → 201 scheduled, planID, server ids and dates, Location, owner token', async (t) => {
  const res = await post(aPlan({ rationale: { description: 'Обгрунтування' } }));
  t.equal(res.status, 201, res.text);
  const d = res.body.data;
  t.equal(res.headers.get('location'), `${server.url}/api/2.5/plans/${d.id}`);
  t.match(d, {
    id: /^[0-9a-f]{32}$/,
    status: 'scheduled',
    planID: /^UA-P-2026-10-05-\d{6}-a$/,
    owner: 'broker',
    dateCreated: '2026-10-05T12:00:00+03:00',
    datePublished: '2026-10-05T12:00:00+03:00',
    dateModified: '2026-10-05T12:00:00+03:00',
    procuringEntity: { id: /^[0-9a-f]{32}$/ },
    buyers: [{ id: /^[0-9a-f]{32}$/ }],
    items: [{ id: /^[0-9a-f]{32}$/ }],
    budget: { currency: 'UAH', breakdown: [{ id: /^[0-9a-f]{32}$/ }] },
    rationale: { description: 'Обгрунтування', date: '2026-10-05T12:00:00+03:00' },
  });
  t.match(res.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
  t.notOk('config' in res.body);
  t.same((await server.request('GET', `/api/2.5/plans/${d.id}`)).body, { data: d });
});

t.test('a plan created as draft stays draft; the tender defaults procurementMethod and type to ""', async (t) => {
  const res = await post(
    aPlan({
      status: 'draft',
      tender: {
        procurementMethod: '',
        procurementMethodType: 'centralizedProcurement',
        tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
      },
    }),
  );
  t.equal(res.status, 201, res.text);
  t.equal(res.body.data.status, 'draft');
  const bare = await post(aPlan({ tender: { tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' } } }));
  t.match(bare, error(422, 'body', 'tender', { procurementMethodType: ["Value must be one of ('centralizedProcurement',)."] }));
});

t.test('creation without a broker key → 403 url/permission', async (t) => {
  t.match(await server.request('POST', '/api/2.5/plans', { body: { data: aPlan() } }), error(403, 'url', 'permission', 'Forbidden'));
});

t.test('a broker of accreditation level 2 alone may not create plans → 403 url/accreditation', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'plans-auth-'));
  const authFile = join(dir, 'auth.ini');
  writeFileSync(
    authFile,
    readFileSync(join(__dirname, '../../../auth.ini'), 'utf8').replace('[brokers]\n', '[brokers]\nlevel2 = level2,2\n'),
  );
  const limited = await startTestServer({ env: { AUTH_FILE: authFile } });
  t.teardown(async () => {
    await limited.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const refused = await limited.request('POST', '/api/2.5/plans', { key: 'level2', body: { data: aPlan() } });
  t.match(refused, error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit plan creation'));
});

t.test('an unknown plan → 404 url/plan_id', async (t) => {
  t.match(await server.request('GET', `/api/2.5/plans/${'a'.repeat(32)}`), error(404, 'url', 'plan_id', 'Not Found'));
});

t.test('shape refusals: Rogue field, required members, a budget that is no mapping', async (t) => {
  // The reference answers these alone; a lone unknown member is part of the clients' habits (issue 20 part 2).
  const rogue = await post({ ...aPlan(), invalid_field: 'invalid_value' });
  t.match(rogue, error(422, 'body', 'invalid_field', 'Rogue field'));
  t.match(
    await post(aPlan({ budget: 'invalid_value' })),
    error(422, 'body', 'budget', ['Please use a mapping for this field or Budget instance instead of str.']),
  );
  const { procuringEntity: _p, classification: _c, ...rest } = aPlan();
  const missing = await post(rest);
  t.equal(missing.status, 422);
  t.same(missing.body.errors.map((e: { name: string }) => e.name).sort(), ['classification', 'procuringEntity']);
  const nameless = planOrganization() as Record<string, unknown>;
  delete nameless.name;
  t.match(await post(aPlan({ procuringEntity: nameless })), error(422, 'body', 'procuringEntity', { name: ['This field is required.'] }));
  const badDate = { procurementMethod: 'open', procurementMethodType: 'belowThreshold', tenderPeriod: { startDate: 'invalid_value' } };
  t.match(
    await post(aPlan({ tender: badDate })),
    error(422, 'body', 'tender', { tenderPeriod: { startDate: ['Could not parse invalid_value. Should be ISO8601.'] } }),
  );
  t.match(
    await server.request('POST', '/api/2.5/plans', { key: 'broker', raw: 'data', contentType: 'application/x-www-form-urlencoded' }),
    error(415, 'header', 'Content-Type', "Content-Type header should be one of ['application/json']"),
  );
  t.match(await post('data'), error(422, 'body', 'data', 'Data not available'));
  t.match(
    await post(aPlan({ classification: { scheme: 'CPV', id: '44617000-8', description: 'x' } })),
    error(422, 'body', 'classification', { scheme: ["Value must be one of ['ДК021']."] }),
  );
});

t.test("tender.procurementMethodType must be one of its procurementMethod's", async (t) => {
  const tender = (procurementMethod: string, procurementMethodType: string) => ({
    procurementMethod,
    procurementMethodType,
    tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
  });
  t.match(
    await post(aPlan({ tender: tender('open', 'reporting') })),
    error(422, 'body', 'tender', {
      procurementMethodType: [
        "Value must be one of ('belowThreshold', 'aboveThreshold', 'aboveThresholdUA', 'aboveThresholdEU', 'aboveThresholdUA.defense', 'simple.defense', 'competitiveDialogueUA', 'competitiveDialogueEU', 'esco', 'closeFrameworkAgreementUA', 'requestForProposal').",
      ],
    }),
  );
  t.match(
    await post(aPlan({ tender: tender('limited', 'belowThreshold') })),
    error(422, 'body', 'tender', { procurementMethodType: ["Value must be one of ('reporting', 'negotiation', 'negotiation.quick')."] }),
  );
  t.equal((await post(aPlan({ tender: tender('selective', 'competitiveOrdering'), budget: aBudget() }))).status, 201);
});

t.test('budget: period before BUDGET_PERIOD_FROM is refused, year from it is refused (injected clock)', async (t) => {
  t.match(
    await post(aPlan({ budget: aBudget({ period: undefined, year: 2026 }) })),
    error(422, 'body', 'budget', { year: ["Can't use year field, use period field instead"] }),
  );
  const old = await at('2018-12-01T12:00:00+02:00', () => post(aPlan({ budget: aBudget() })));
  t.match(old, error(422, 'body', 'budget', { period: ["Can't use period field, use year field instead"] }));
  const withYear = await at('2018-12-01T12:00:00+02:00', () => post(aPlan({ budget: aBudget({ period: undefined, year: 2019 }) })));
  t.equal(withYear.status, 201, withYear.text);
  t.equal(withYear.body.data.budget.year, 2019);
});

t.test('budget: required, one year, breakdown members, currencies and sums', async (t) => {
  t.match(await post(aPlan({ budget: undefined })), error(422, 'body', 'budget', ['This field is required.']));
  t.match(
    await post(aPlan({ budget: aBudget({ period: { startDate: '2026-01-01T00:00:00+02:00', endDate: '2027-01-31T00:00:00+02:00' } }) })),
    error(422, 'body', 'budget', ['Period startDate and endDate must be within one year for belowThreshold.']),
  );
  t.match(
    await post(aPlan({ budget: aBudget({ breakdown: [{ title: 'other', value: { amount: 1, currency: 'UAH' } }] }) })),
    error(422, 'body', 'budget', { breakdown: [{ description: ['This field is required.'] }] }),
  );
  t.match(
    await post(
      aPlan({
        budget: aBudget({
          breakdown: [
            { title: 'state', value: { amount: 1, currency: 'USD' } },
            { title: 'local', value: { amount: 1, currency: 'UAH' } },
          ],
        }),
      }),
    ),
    error(422, 'body', 'budget', { breakdown: ['Currency should be identical for all budget breakdown values and budget'] }),
  );
  t.match(
    await post(
      aPlan({
        budget: aBudget({
          amount: 100,
          breakdown: [
            { title: 'state', value: { amount: 60, currency: 'UAH' } },
            { title: 'local', value: { amount: 40.01, currency: 'UAH' } },
          ],
        }),
      }),
    ),
    error(422, 'body', 'budget', ["Sum of the breakdown values amounts can't be greater than budget amount"]),
  );
  const openUa = {
    procurementMethod: 'open',
    procurementMethodType: 'aboveThresholdUA',
    tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
  };
  t.match(
    await post(aPlan({ tender: openUa, budget: aBudget({ breakdown: undefined }) })),
    error(422, 'body', 'budget', ['Breakdown field is required.']),
  );
  t.match(await post(aPlan({ budget: aBudget({ breakdown: [{ title: 'mine', value: { amount: 1 } }] }) })), {
    status: 422,
    body: {
      errors: [
        {
          name: 'budget',
          description: { breakdown: [{ title: ["Value must be one of ['state', 'crimea', 'local', 'own', 'fund', 'loan', 'other']."] }] },
        },
      ],
    },
  });
});

t.test('buyers: required from PLAN_BUYERS_REQUIRED_FROM, optional before it (injected clock)', async (t) => {
  t.match(await post(aPlan({ buyers: undefined })), error(422, 'body', 'buyers', ['This field is required.']));
  t.match(
    await post(aPlan({ buyers: [planOrganization(), planOrganization()] })),
    error(422, 'body', 'buyers', ['Please provide no more than 1 item.']),
  );
  const early = await at('2019-08-01T12:00:00+03:00', () =>
    post(
      aPlan({
        buyers: undefined,
        budget: aBudget({ period: { startDate: '2019-01-01T00:00:00+02:00', endDate: '2019-12-31T00:00:00+02:00' } }),
      }),
    ),
  );
  t.equal(early.status, 201, early.text);
});

t.test('address and kind: required from PLAN_ADDRESS_KIND_REQUIRED_FROM on the procuring entity and buyers', async (t) => {
  const { address: _a, kind: _k, ...bare } = planOrganization();
  t.match(
    await post(aPlan({ procuringEntity: bare })),
    error(422, 'body', 'procuringEntity', { address: ['This field is required.'], kind: ['This field is required.'] }),
  );
  t.match(
    await post(aPlan({ buyers: [bare] })),
    error(422, 'body', 'buyers', [{ address: ['This field is required.'], kind: ['This field is required.'] }]),
  );
  const budget = aBudget({ period: { startDate: '2020-01-01T00:00:00+02:00', endDate: '2020-12-31T00:00:00+02:00' } });
  const early = await at('2020-06-01T12:00:00+03:00', () => post(aPlan({ procuringEntity: bare, buyers: [bare], budget })));
  t.equal(early.status, 201, early.text);
});

t.test('a kind plans only its procedures → 403 body/kind; a retired defense type → 403', async (t) => {
  const tender = {
    procurementMethod: 'open',
    procurementMethodType: 'aboveThresholdUA.defense',
    tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
  };
  t.match(
    await post(aPlan({ tender })),
    error(403, 'body', 'data', 'procedure with procurementMethodType = aboveThresholdUA.defense is not available'),
  );
  const simple = { ...tender, procurementMethodType: 'simple.defense' };
  t.match(
    await post(aPlan({ tender: simple })),
    error(
      403,
      'body',
      'kind',
      'procuringEntity with general kind cannot publish this type of procedure. Procurement method types allowed for this kind: centralizedProcurement, belowThreshold, aboveThreshold, aboveThresholdUA, aboveThresholdEU, competitiveDialogueUA, competitiveDialogueEU, esco, closeFrameworkAgreementUA, requestForProposal, priceQuotation, competitiveOrdering, reporting, negotiation, negotiation.quick.',
    ),
  );
  t.equal((await post(aPlan({ tender: simple, procuringEntity: { ...planOrganization(), kind: 'defense' } }))).status, 201);
  const other = { ...planOrganization(), kind: 'other' };
  const central = { procurementMethod: '', procurementMethodType: 'centralizedProcurement', tenderPeriod: tender.tenderPeriod };
  t.match(
    await post(aPlan({ procuringEntity: other, tender: central })),
    error(
      403,
      'body',
      'kind',
      'procuringEntity with other kind cannot publish this type of procedure. Procurement method types allowed for this kind: belowThreshold, reporting, priceQuotation.',
    ),
  );
});

t.test('items: unique ids, one CPV class (group for 336), the same as the plan classification', async (t) => {
  const id = 'a'.repeat(32);
  t.match(
    await post(aPlan({ items: [anItem({ id }), anItem({ id })] })),
    error(422, 'body', 'items', ['Item id should be uniq for all items']),
  );
  const cls = (code: string) => ({ scheme: 'ДК021', id: code, description: 'x' });
  t.match(
    await post(
      aPlan({
        classification: cls('33600000-6'),
        items: [anItem({ classification: cls('33600000-6') }), anItem({ classification: cls('31519200-9') })],
      }),
    ),
    error(422, 'body', 'items', ['CPV group of items should be identical']),
  );
  t.match(
    await post(aPlan({ classification: cls('33600000-6'), items: [anItem({ classification: cls('31519200-9') })] })),
    error(422, 'body', 'items', ['CPV group of items should be identical to root cpv']),
  );
  t.match(
    await post(
      aPlan({
        classification: cls('31519200-9'),
        items: [anItem({ classification: cls('03222321-9') }), anItem({ classification: cls('31519200-9') })],
      }),
    ),
    error(422, 'body', 'items', ['CPV class of items should be identical']),
  );
  t.match(
    await post(aPlan({ classification: cls('31519200-9'), items: [anItem({ classification: cls('03222321-9') })] })),
    error(422, 'body', 'items', ['CPV class of items should be identical to root cpv']),
  );
  const inn = await post(aPlan({ classification: cls('33600000-6'), items: [anItem({ classification: cls('33651000-5') })] }));
  t.equal(inn.status, 201, "the INN rules are the tender items' (docs/plans.md §Items), not the plan's");
  t.match(
    await post(aPlan({ classification: cls('99999999-9'), items: [anItem({ classification: cls('99999999-9') })] })),
    error(422, 'body', 'items', [
      { additionalClassifications: ['One of additional classifications should be one of [ДК003, ДК015, ДК018, specialNorms].'] },
    ]),
  );
});

t.test('status on creation: complete only for a type without a tender; cancelled only with an active cancellation', async (t) => {
  const complete = await post(aPlan({ status: 'complete' }));
  t.equal(complete.status, 201);
  t.equal(complete.body.data.status, 'complete');
  const openUa = {
    procurementMethod: 'open',
    procurementMethodType: 'aboveThresholdUA',
    tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
  };
  t.match(
    await post(aPlan({ status: 'complete', tender: openUa })),
    error(422, 'body', 'status', ["Can't complete plan with 'aboveThresholdUA' tender.procurementMethodType"]),
  );
  t.match(await post(aPlan({ status: 'cancelled' })), error(422, 'body', 'status', ['An active cancellation object is required']));
  const cancelled = await post(aPlan({ cancellation: { reason: 'Причина', status: 'active' } }));
  t.match(cancelled.body.data, {
    status: 'cancelled',
    cancellation: { reason: 'Причина', status: 'active', id: /^[0-9a-f]{32}$/, date: '2026-10-05T12:00:00+03:00' },
  });
});

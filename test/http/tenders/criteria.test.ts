import t from 'tap';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { aBid, activateDraft, answersTo, draftWithLots, tenderInTendering, type Created } from '../../fixtures/tenders';

/** docs/tenders.md §Criteria: criteria in the reference's current shape, posted by the owner before activation. */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const API = '/api/2.5';
const LANGUAGE = 'CRITERION.OTHER.BID.LANGUAGE';
const VALIDITY = 'CRITERION.OTHER.BID.VALIDITY_PERIOD';

const law922 = (article: string) => [
  {
    version: '2025-10-31',
    identifier: {
      id: '922-VIII',
      legalName: 'Закон України "Про публічні закупівлі"',
      uri: 'https://zakon.rada.gov.ua/laws/show/922-19#n1398',
    },
    type: 'NATIONAL_LEGISLATION',
    article,
  },
];

const criterion = (id: string, source: string, requirements: Record<string, unknown>[]) => ({
  title: `Критерій ${id}`,
  source,
  classification: { scheme: 'LAW922', id },
  relatesTo: 'tender',
  legislation: law922('22.2.13'),
  requirementGroups: [{ description: 'Підтверджується, що', requirements }],
});

const languageRequirement = (overrides: Record<string, unknown> = {}) => ({
  title: 'Мова тендерної пропозиції',
  dataSchema: 'ISO 639-3',
  dataType: 'string',
  expectedMinItems: 1,
  expectedValues: ['ukr', 'eng', 'fra', 'spa'],
  ...overrides,
});

/** Criteria as the reference's tutorial posts them today (`add-exclusion-criteria`), shortened to one of each kind. */
const referenceCriteria = () => [
  criterion(VALIDITY, 'tenderer', [
    { title: 'Строк дії тендерної пропозиції', dataType: 'integer', minValue: 90, unit: { code: 'DAY', name: 'день' } },
  ]),
  criterion(LANGUAGE, 'tenderer', [languageRequirement()]),
  criterion('CRITERION.EXCLUSION.CONFLICT_OF_INTEREST.MISINTERPRETATION', 'procuringEntity', [
    {
      title: 'Учасник пропонує винагороду',
      dataType: 'boolean',
      eligibleEvidences: [{ title: 'Документальне підтвердження', type: 'document' }],
    },
  ]),
  criterion('CRITERION.EXCLUSION.CONVICTIONS.FRAUD', 'tenderer', [
    { title: 'Учасника не було притягнуто', dataType: 'boolean', expectedValue: true },
  ]),
];

const coDraft = () => draftWithLots(server, { procedure: 'competitiveOrdering', lots: 1 });
const postCriteria = (tender: Created, data: unknown) =>
  server.request('POST', `${API}/tenders/${tender.id}/criteria`, { key: 'broker', token: tender.token, body: { data } });
const read = async (tender: Created) => (await server.request('GET', `${API}/tenders/${tender.id}`)).body;

/** A refused POST leaves the tender as it was. */
async function refused(t: any, tender: Created, data: unknown, expected: unknown) {
  const before = await read(tender);
  const res = await postCriteria(tender, data);
  t.match({ status: res.status, body: res.body }, expected);
  t.same(await read(tender), before, 'the tender is unchanged');
}

/** The refusal of one requirement member of the first criterion posted, where the list's errors put it. */
const onRequirement = (member: string, description: unknown) =>
  errorReply(422, 'body', '0', { requirementGroups: [{ requirements: [{ [member]: description }] }] });

const withLanguage = (overrides: Record<string, unknown>) => [criterion(LANGUAGE, 'tenderer', [languageRequirement(overrides)])];

t.test("the reference's current criteria: posted on the draft, kept beside the spec's on activation", async (t) => {
  const draft = await coDraft();
  const res = await postCriteria(draft, referenceCriteria());
  t.equal(res.status, 201, res.text);
  const language = res.body.data.find((c: any) => c.classification.id === LANGUAGE);
  t.match(language, {
    id: /^[0-9a-f]{32}$/,
    classification: { scheme: 'LAW922', id: LANGUAGE },
    relatesTo: 'tender',
    requirementGroups: [
      {
        id: /^[0-9a-f]{32}$/,
        requirements: [{ ...languageRequirement(), id: /^[0-9a-f]{32}$/, status: 'active', datePublished: String }],
      },
    ],
  });
  const validity = res.body.data.find((c: any) => c.classification.id === VALIDITY);
  t.match(validity.requirementGroups[0].requirements[0], { dataType: 'integer', minValue: 90, unit: { code: 'DAY', name: 'день' } });

  const active = (await activateDraft(server, draft, 'active.tendering')).body.data;
  const ids = active.criteria.map((c: any) => c.classification.id);
  t.same(
    ids.slice(0, 4),
    res.body.data.map((c: any) => c.classification.id),
    'the posted criteria come first, as posted',
  );
  t.same(active.criteria.slice(0, 4), res.body.data, 'unchanged by activation');
  t.equal(new Set(ids).size, ids.length, 'no criterion twice: the spec list adds only the missing ones');
  t.equal(ids.length, 4 + 7, "the spec's 10, less the 3 posted, beside the 4 posted");
  t.ok(ids.includes('CRITERION.OTHER.CONTRACT.GUARANTEE'), "the spec's criteria are there");
});

t.test('a bid answers a choice of values: within the counts and among the expected values', async (t) => {
  const tender = await tenderInTendering(server, { procedure: 'competitiveOrdering', lots: 1, criteria: () => referenceCriteria() });
  const requirementOf = (id: string) =>
    tender.data.criteria.find((c: any) => c.classification.id === id).requirementGroups[0].requirements[0];
  const language = requirementOf(LANGUAGE);
  const validity = requirementOf(VALIDITY);
  const others = answersTo(tender.data.criteria).filter((r: any) => ![language.id, validity.id].includes(r.requirement.id));
  const bid = (languageAnswer: Record<string, unknown>, days = 90) =>
    aBid(tender, 450, 1, {
      status: 'pending',
      requirementResponses: [
        ...others,
        { requirement: { id: language.id }, ...languageAnswer },
        { requirement: { id: validity.id }, value: days },
      ],
    });
  const post = (data: unknown) => server.request('POST', `${API}/tenders/${tender.id}/bids`, { key: 'broker1', body: { data } });
  const refusal = (description: unknown) => errorReply(422, 'body', 'requirementResponses', description);

  t.match(
    await post(bid({ values: ['deu'] })),
    refusal([`One or more values are not among expected values for requirement ${language.id}`]),
  );
  t.match(await post(bid({ values: [] })), refusal([{ value: 'Response required at least one of field ["value", "values"]' }]));
  t.match(await post(bid({ values: ['ukr'] }, 30)), refusal([`Value 30 is lower than minimal required 90 in requirement ${validity.id}`]));
  const ok = await post(bid({ values: ['ukr', 'eng'] }));
  t.equal(ok.status, 201, ok.text);
  t.match(ok.body.data.requirementResponses.at(-2), { values: ['ukr', 'eng'], classification: { scheme: 'LAW922', id: LANGUAGE } });
  const single = await post(aBid(tender, 440, 2, { ...bid({ value: 'ukr' }), tenderers: aBid(tender, 440, 2).tenderers }));
  t.equal(single.status, 201, 'one value as `value`');
});

t.test('a choice of values at most expectedMaxItems', async (t) => {
  const tender = await tenderInTendering(server, {
    procedure: 'competitiveOrdering',
    lots: 1,
    criteria: () => withLanguage({ expectedMaxItems: 2 }),
  });
  const language = tender.data.criteria[0].requirementGroups[0].requirements[0];
  const responses = answersTo(tender.data.criteria).map((r: any) =>
    r.requirement.id === language.id ? { requirement: r.requirement, values: ['ukr', 'eng', 'fra'] } : r,
  );
  const res = await server.request('POST', `${API}/tenders/${tender.id}/bids`, {
    key: 'broker1',
    body: { data: aBid(tender, 450, 1, { status: 'pending', requirementResponses: responses }) },
  });
  t.match(
    res,
    errorReply(422, 'body', 'requirementResponses', [`Count of values is higher than maximum of 2 for requirement ${language.id}`]),
  );
});

t.test('bad requirements are refused with the reference texts, nothing stored', async (t) => {
  const draft = await coDraft();
  const cases: [string, Record<string, unknown>, unknown][] = [
    [
      'expectedMinItems below 1',
      { expectedMinItems: 0 },
      onRequirement('expectedMinItems', ['Int value should be greater than or equal to 1.']),
    ],
    ['expectedMinItems not an integer', { expectedMinItems: 1.5 }, onRequirement('expectedMinItems', ["Value '1.5' is not int."])],
    [
      'expectedMinItems above the count',
      { expectedMinItems: 5 },
      onRequirement('expectedValues', ["expectedMinItems couldn't be higher then count of items in expectedValues"]),
    ],
    [
      'expectedMaxItems above the count',
      { expectedMaxItems: 5 },
      onRequirement('expectedValues', ["expectedMaxItems couldn't be higher then count of items in expectedValues"]),
    ],
    [
      'expectedMinItems above expectedMaxItems',
      { expectedMinItems: 3, expectedMaxItems: 2 },
      onRequirement('expectedValues', ["expectedMinItems couldn't be higher then expectedMaxItems"]),
    ],
    [
      'counts without expectedValues',
      { expectedValues: undefined },
      onRequirement('expectedValues', ["expectedMinItems and expectedMaxItems couldn't exist without expectedValues"]),
    ],
    [
      'expectedValues beside expectedValue',
      { expectedValue: 'ukr' },
      onRequirement('expectedValues', ["expectedValues conflicts with ['minValue', 'maxValue', 'expectedValue']"]),
    ],
    [
      'expectedValues beside minValue',
      { dataType: 'integer', minValue: 1, expectedValues: [1, 2] },
      onRequirement('expectedValues', ["expectedValues conflicts with ['minValue', 'maxValue', 'expectedValue']"]),
    ],
    [
      'expectedValues of another type',
      { dataType: 'integer', expectedValues: ['ukr'] },
      onRequirement('expectedValues', ["Value 'ukr' is not int."]),
    ],
    ['expectedValues not a list', { expectedValues: 'ukr' }, onRequirement('expectedValues', ['Could not interpret the value as a list.'])],
    [
      'expectedValues empty',
      { expectedValues: [], expectedMinItems: undefined },
      onRequirement('expectedValues', ['Please provide at least 1 item.']),
    ],
    [
      'an unknown dataSchema',
      { dataSchema: 'ISO 4217' },
      onRequirement('dataSchema', ["Value must be one of ['ISO 639-3', 'ISO 3166-1 alpha-2']."]),
    ],
    ['a member the reference does not have', { expectedItems: 1 }, onRequirement('expectedItems', 'Rogue field')],
  ];
  for (const [name, overrides, expected] of cases) {
    await t.test(name, (t) => refused(t, draft, withLanguage(overrides), expected));
  }
  await t.test('the spec-era shape still passes: expectedValue with minValue', async (t) => {
    const res = await postCriteria(draft, [
      criterion(VALIDITY, 'tenderer', [{ title: 'Строк', dataType: 'integer', expectedValue: 90, minValue: 90 }]),
    ]);
    t.equal(res.status, 201, res.text);
  });
});

t.test('criteria are posted only on a draft, by its owner', async (t) => {
  const tender = await tenderInTendering(server, { procedure: 'competitiveOrdering', lots: 1 });
  await refused(
    t,
    tender,
    referenceCriteria(),
    errorReply(403, 'body', 'data', "Can't add criterion in current (active.tendering) tender status"),
  );
  const draft = await coDraft();
  const before = await read(draft);
  const other = await server.request('POST', `${API}/tenders/${draft.id}/criteria`, {
    key: 'broker1',
    body: { data: referenceCriteria() },
  });
  t.match(other, errorReply(403, 'url', 'permission', 'Forbidden'));
  t.same(await read(draft), before, 'the draft is unchanged');
});

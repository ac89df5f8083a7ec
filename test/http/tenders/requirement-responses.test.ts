import t from 'tap';
import { uploadDocument } from '../../fixtures/frameworks';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { aBid, activateDraft, answersTo, draftWithLots, placeBid, tenderInTendering, type Created } from '../../fixtures/tenders';
import { decision, patchAward, tenderInQualification } from '../../fixtures/awards';

/** docs/tenders.md §Requirement responses, on the engine the suite runs on. */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const API = '/api/2.5';
const bidsOf = (tender: Created) => `${API}/tenders/${tender.id}/bids`;
const post = (tender: Created, data: unknown, key = 'broker1') => server.request('POST', bidsOf(tender), { key, body: { data } });
const patch = (tender: Created, bid: { id: string; token: string }, data: unknown, key = 'broker1') =>
  server.request('PATCH', `${bidsOf(tender)}/${bid.id}`, { key, token: bid.token, body: { data } });
const refused = (description: unknown) => errorReply(422, 'body', 'requirementResponses', description);

const coTender = () => tenderInTendering(server, { procedure: 'competitiveOrdering', lots: 1 });
const bidderCriteria = (tender: Created) => tender.data.criteria.filter((c: any) => c.source !== 'procuringEntity');
const requirementOf = (criterion: any, group = 0, n = 0) => criterion.requirementGroups[group].requirements[n];
const byClassification = (tender: Created, id: string) => tender.data.criteria.find((c: any) => c.classification.id === id);

/** A draft bid (no responses) and its token. */
async function draftBid(tender: Created, overrides: Record<string, unknown> = {}) {
  const res = await post(tender, aBid(tender, 450, 1, { requirementResponses: undefined, ...overrides }));
  if (res.status !== 201) throw new Error(res.text);
  return { id: res.body.data.id as string, token: res.body.access.token as string, data: res.body.data };
}

t.test(
  'competitiveOrdering: a pending bid answering every tenderer and winner criterion → 201, responses completed by the server',
  async (t) => {
    const tender = await coTender();
    const answers = answersTo(tender.data.criteria);
    t.equal(answers.length, bidderCriteria(tender).length, 'one requirement in each of the 8 bidder criteria');
    const res = await post(tender, aBid(tender, 450, 1, { status: 'pending' }));
    t.equal(res.status, 201, res.text);
    const [first] = res.body.data.requirementResponses;
    const criterion = bidderCriteria(tender)[0];
    t.match(first, {
      id: /^[0-9a-f]{32}$/,
      requirement: { id: requirementOf(criterion).id, title: requirementOf(criterion).title },
      value: true,
      classification: criterion.classification,
    });
    const tenderOwner = await server.request('GET', `${API}/tenders/${tender.id}`, { key: 'broker', token: tender.token });
    t.notOk(tenderOwner.body.data.bids, 'sealed: not in the tender, even for its owner');
    t.equal((await server.request('GET', `${bidsOf(tender)}/${res.body.data.id}`, { key: 'broker' })).status, 403, 'nor in the bid');
    const own = await server.request('GET', `${bidsOf(tender)}/${res.body.data.id}`, { key: 'broker1', token: res.body.access.token });
    t.same(own.body.data.requirementResponses, res.body.data.requirementResponses, 'the bid owner reads them');
  },
);

t.test('a string value converts to the requirement dataType: "true" is stored as true', async (t) => {
  const tender = await coTender();
  const responses = answersTo(tender.data.criteria).map((r: any) => ({ ...r, value: 'true' }));
  const res = await post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: responses }));
  t.equal(res.status, 201, res.text);
  t.ok(res.body.data.requirementResponses.every((r: any) => r.value === true));
});

t.test(
  'a pending bid without responses → 422 "Responses are required for all criteria with source tenderer/winner, failed for criteria …"',
  async (t) => {
    const tender = await coTender();
    const ids = bidderCriteria(tender).map((c: any) => c.id);
    t.match(
      await post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: undefined })),
      refused([`Responses are required for all criteria with source tenderer/winner, failed for criteria ${ids.join(', ')}`]),
    );
    const missingOne = answersTo(tender.data.criteria).slice(1);
    t.match(
      await post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: missingOne })),
      refused([`Responses are required for all criteria with source tenderer/winner, failed for criteria ${ids[0]}`]),
    );
  },
);

t.test('a draft takes partial answers; moving it to pending is refused until it answers all; responses merge by position', async (t) => {
  const tender = await coTender();
  const [one, ...rest] = answersTo(tender.data.criteria);
  const bid = await draftBid(tender, { requirementResponses: [one] });
  const firstId = bid.data.requirementResponses[0].id;
  const ids = bidderCriteria(tender).map((c: any) => c.id);
  t.match(
    await patch(tender, bid, { status: 'pending' }),
    refused([`Responses are required for all criteria with source tenderer/winner, failed for criteria ${ids.slice(1).join(', ')}`]),
  );
  const res = await patch(tender, bid, { status: 'pending', requirementResponses: [{}, ...rest] });
  t.equal(res.status, 200, res.text);
  t.equal(res.body.data.requirementResponses[0].id, firstId, 'the first response keeps its id and answer');
  t.equal(res.body.data.requirementResponses[0].requirement.id, one.requirement.id);
  t.equal(res.body.data.requirementResponses.length, ids.length);
});

t.test('a response naming no requirement of the criteria: accepted on a draft, 422 on a pending bid', async (t) => {
  const tender = await coTender();
  const unknown = [{ requirement: { id: 'f'.repeat(32) }, value: true }, ...answersTo(tender.data.criteria)];
  t.equal((await post(tender, aBid(tender, 450, 1, { requirementResponses: unknown }))).status, 201);
  t.match(
    await post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: unknown })),
    refused([{ requirement: ['Requirement should be one of criteria requirements'] }]),
  );
});

t.test(
  'a response to a procuringEntity criterion → 422 "Requirement response in bid can\'t have requirement criteria with source: procuringEntity"',
  async (t) => {
    const tender = await coTender();
    const entity = tender.data.criteria.find((c: any) => c.source === 'procuringEntity');
    const responses = [...answersTo(tender.data.criteria), { requirement: { id: requirementOf(entity).id }, value: true }];
    t.match(
      await post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: responses })),
      refused([{ requirement: ["Requirement response in bid can't have requirement criteria with source: procuringEntity"] }]),
    );
  },
);

t.test(
  'two responses to one requirement → 422 [{requirement: "Items should be unique by fields: requirement.id"}], drafts too',
  async (t) => {
    const tender = await coTender();
    const [one] = answersTo(tender.data.criteria);
    t.match(
      await post(tender, aBid(tender, 450, 1, { requirementResponses: [one, one] })),
      refused([{ requirement: 'Items should be unique by fields: requirement.id' }]),
    );
  },
);

t.test('values: wrong type (drafts too), none, both value and values, not the expected one', async (t) => {
  const tender = await coTender();
  const answers = answersTo(tender.data.criteria);
  const first = answers[0].requirement.id;
  const withFirst = (response: Record<string, unknown>, status = 'pending') =>
    post(
      tender,
      aBid(tender, 450, 1, { status, requirementResponses: [{ requirement: { id: first }, ...response }, ...answers.slice(1)] }),
    );
  t.match(await withFirst({ value: 'так' }, 'draft'), refused([{ value: ['Must be either true or false.'] }]));
  t.match(await withFirst({ values: [true, 'ні'] }, 'draft'), refused([{ values: ['Must be either true or false.'] }]));
  t.match(await withFirst({}), refused([{ value: 'Response required at least one of field ["value", "values"]' }]));
  t.match(await withFirst({ value: true, values: [true] }), refused([{ value: "Field 'value' conflicts with 'values'" }]));
  t.match(await withFirst({ value: false }), refused([`Value "False" does not match expected value "true" in requirement ${first}`]));
  t.equal((await withFirst({ values: [true] })).status, 201, 'values answer as value does');
});

t.test('relatedTenderer and relatedItem must name the bid’s tenderer and a tender item', async (t) => {
  const tender = await coTender();
  const answers = answersTo(tender.data.criteria);
  const withFirst = (extra: Record<string, unknown>) =>
    post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: [{ ...answers[0], ...extra }, ...answers.slice(1)] }));
  t.match(
    await withFirst({ relatedTenderer: { id: '99999999' } }),
    refused([{ relatedTenderer: ['relatedTenderer should be one of bid tenderers'] }]),
  );
  t.equal((await withFirst({ relatedTenderer: { id: '10000000', title: 'Постачальник 1' } })).status, 201);
  t.match(await withFirst({ relatedItem: 'e'.repeat(32) }), refused([{ relatedItem: ['relatedItem should be one of items'] }]));
  t.equal((await withFirst({ relatedItem: tender.data.items[0].id })).status, 201);
});

t.test('a field the reference does not take (title) → 422 Rogue field', async (t) => {
  const tender = await coTender();
  const [one] = answersTo(tender.data.criteria);
  t.match(
    await post(tender, aBid(tender, 450, 1, { requirementResponses: [{ ...one, title: 'Відповідь' }] })),
    refused([{ title: 'Rogue field' }]),
  );
});

t.test('selfEligible → 422 "Rogue field." (the responses replace it), selfQualified true only; belowThreshold takes neither', async (t) => {
  const tender = await coTender();
  const at = (name: string, description: unknown) => errorReply(422, 'body', name, description);
  t.match(await post(tender, aBid(tender, 450, 1, { selfEligible: true })), at('selfEligible', ['Rogue field.']));
  t.match(await post(tender, aBid(tender, 450, 1, { selfEligible: false })), at('selfEligible', ['Value must be one of [True].']));
  t.match(await post(tender, aBid(tender, 450, 1, { selfQualified: false })), at('selfQualified', ['Value must be one of [True].']));
  const bid = await draftBid(tender, { selfQualified: true });
  t.equal(bid.data.selfQualified, true);
  t.match(await patch(tender, bid, { selfEligible: true }), at('selfEligible', ['Rogue field.']));
  const start = server.clock.now();
  const below = await tenderInTendering(server, { lots: 1 });
  for (const name of ['selfEligible', 'selfQualified']) {
    t.match(await post(below, aBid(below, 450, 1, { [name]: true })), at(name, 'Rogue field'));
  }
  server.clock.set(start);
});

t.test('evidences: a document evidence needs a bid document; a winner criterion takes none while tendering', async (t) => {
  const tender = await coTender();
  const answers = answersTo(tender.data.criteria);
  const bid = await draftBid(tender, { requirementResponses: answers });
  const withEvidence = (evidence: Record<string, unknown>, at = 0) =>
    patch(tender, bid, {
      status: 'pending',
      requirementResponses: answers.map((a: any, i: number) => (i === at ? { ...a, evidences: [evidence] } : a)),
    });
  t.match(
    await withEvidence({ title: 'Довідка', type: 'document' }),
    refused([{ evidences: [{ relatedDocument: ['This field is required.'] }] }]),
  );
  t.match(
    await withEvidence({ title: 'Довідка', type: 'document', relatedDocument: { id: 'a'.repeat(32), title: 'x.doc' } }),
    refused([{ evidences: [{ relatedDocument: ['relatedDocument.id should be one of bid documents'] }] }]),
  );
  const doc = await uploadDocument(server, `${bidsOf(tender)}/${bid.id}/documents`, {
    key: 'broker1',
    token: bid.token,
    filename: 'довідка.pdf',
  });
  const ok = await withEvidence({ title: 'Довідка', type: 'document', relatedDocument: { id: doc.body.data.id, title: 'довідка.pdf' } });
  t.equal(ok.status, 200, ok.text);
  t.match(ok.body.data.requirementResponses[0].evidences[0], { id: /^[0-9a-f]{32}$/, type: 'document' });
  const guarantee = answers.findIndex(
    (a: any) => a.requirement.id === requirementOf(byClassification(tender, 'CRITERION.OTHER.CONTRACT.GUARANTEE')).id,
  );
  t.match(
    await withEvidence({ title: 'Гарантія', type: 'statement' }, guarantee),
    refused([
      ...Array(guarantee).fill({}),
      { evidences: ["available only in ['active.awarded', 'active.qualification', 'active.pre-qualification'] status"] },
    ]),
  );
});

t.test("criteria of the owner's: one group per criterion, every requirement of it, numbers within bounds, evidence types", async (t) => {
  const draft = await draftWithLots(server, { procedure: 'competitiveOrdering', lots: 1 });
  const posted = await server.request('POST', `${API}/tenders/${draft.id}/criteria`, {
    key: 'broker',
    token: draft.token,
    body: {
      data: [
        {
          title: 'Досвід',
          source: 'tenderer',
          relatesTo: 'tenderer',
          classification: { scheme: 'ESPD211', id: 'CRITERION.SELECTION.TECHNICAL_PROFESSIONAL_ABILITY.TECHNICAL.EXPERIENCE' },
          requirementGroups: [
            {
              description: 'Роки і договори',
              requirements: [
                {
                  title: 'Років досвіду',
                  dataType: 'integer',
                  minValue: 2,
                  maxValue: 30,
                  eligibleEvidences: [{ title: 'Довідка', type: 'document' }],
                },
                { title: 'Опис', dataType: 'string' },
              ],
            },
            { description: 'Інакше', requirements: [{ title: 'Має аналогічний договір', dataType: 'boolean', expectedValue: true }] },
          ],
        },
      ],
    },
  });
  t.equal(posted.status, 201, posted.text);
  const tender = { ...draft, data: (await activateDraft(server, draft, 'active.tendering')).body.data };
  const own = tender.data.criteria[0];
  const [years, text] = own.requirementGroups[0].requirements;
  const other = requirementOf(own, 1);
  const spec = answersTo(tender.data.criteria.slice(1));
  const submit = (responses: unknown[]) =>
    post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: [...responses, ...spec] }));
  t.match(
    await submit([{ requirement: { id: years.id }, value: 5 }]),
    refused([`Responses are required for all requirements in a requirement group, failed for criteria ${own.id}`]),
  );
  t.match(
    await submit([
      { requirement: { id: years.id }, value: 5 },
      { requirement: { id: text.id }, value: 'так' },
      { requirement: { id: other.id }, value: true },
    ]),
    refused([`Responses are allowed for only one group of requirements per criterion, failed for criteria ${own.id}`]),
  );
  t.match(
    await submit([
      { requirement: { id: years.id }, value: 1 },
      { requirement: { id: text.id }, value: 'так' },
    ]),
    refused([`Value 1 is lower than minimal required 2 in requirement ${years.id}`]),
  );
  t.match(
    await submit([
      { requirement: { id: years.id }, value: 31 },
      { requirement: { id: text.id }, value: 'так' },
    ]),
    refused([`Value 31 is higher than required 30 in requirement ${years.id}`]),
  );
  t.match(
    await submit([
      { requirement: { id: years.id }, value: 2.5 },
      { requirement: { id: text.id }, value: 'так' },
    ]),
    refused([{ value: ["Value '2.5' is not int."] }]),
  );
  t.match(
    await submit([
      { requirement: { id: years.id }, value: 5, evidences: [{ title: 'Заява', type: 'statement' }] },
      { requirement: { id: text.id }, value: 'так' },
    ]),
    refused([{ evidences: [{ type: ['type should be one of eligibleEvidences types'] }] }]),
  );
  t.equal((await submit([{ requirement: { id: other.id }, value: true }])).status, 201, 'the other group alone answers the criterion');
  const res = await submit([
    { requirement: { id: years.id }, value: '5' },
    { requirement: { id: text.id }, value: 'так' },
  ]);
  t.equal(res.status, 201, res.text);
  t.equal(res.body.data.requirementResponses[0].value, 5, 'an integer sent as a string is stored as a number');
});

t.test('belowThreshold: responses go through the same rules; a tender without criteria takes none on a pending bid', async (t) => {
  const tender = await tenderInTendering(server, { lots: 1 });
  const response = { requirement: { id: 'f'.repeat(32) }, value: true };
  t.equal((await post(tender, aBid(tender, 450, 1, { requirementResponses: [response] }))).status, 201);
  t.match(
    await post(tender, aBid(tender, 450, 1, { status: 'pending', requirementResponses: [response] })),
    refused([{ requirement: ['Requirement should be one of criteria requirements'] }]),
  );
});

t.test('evidence route while tendering: any response but the guarantee takes one; the pending bid stays pending', async (t) => {
  const tender = await coTender();
  const bid = await placeBid(server, tender);
  const guaranteeId = requirementOf(byClassification(tender, 'CRITERION.OTHER.CONTRACT.GUARANTEE')).id;
  const guarantee = bid.data.requirementResponses.find((r: any) => r.requirement.id === guaranteeId);
  t.match(
    await server.request('POST', `${bidsOf(tender)}/${bid.id}/requirement_responses/${guarantee.id}/evidences`, {
      key: 'broker1',
      token: bid.token,
      body: { data: { title: 'Гарантія' } },
    }),
    errorReply(403, 'body', 'data', "available only in ['active.awarded', 'active.qualification'] statuses"),
  );
  t.match(
    await server.request('POST', `${bidsOf(tender)}/${bid.id}/requirement_responses/${'0'.repeat(32)}/evidences`, {
      key: 'broker3',
      body: { data: { title: 'Гарантія' } },
    }),
    errorReply(404, 'url', 'requirement_response_id', 'Not Found'),
    'an unknown response is 404 before access is checked',
  );
  const responseId = bid.data.requirementResponses[0].id;
  const res = await server.request('POST', `${bidsOf(tender)}/${bid.id}/requirement_responses/${responseId}/evidences`, {
    key: 'broker1',
    token: bid.token,
    body: { data: { title: 'Заява', description: 'Підтверджую' } },
  });
  t.equal(res.status, 201, res.text);
  t.match(res.body.data, { type: 'statement' });
  const read = await server.request('GET', `${bidsOf(tender)}/${bid.id}`, { key: 'broker1', token: bid.token });
  t.equal(read.body.data.status, 'pending');
  t.same(read.body.data.requirementResponses[0].evidences, [res.body.data]);
});

t.test('evidence route: the winner supports its guarantee answer once its award is active; refusals before', async (t) => {
  const { tender, bids, data } = await tenderInQualification(server, { procedure: 'competitiveOrdering', lots: 1 });
  const guaranteeId = requirementOf(data.criteria.find((c: any) => c.classification.id === 'CRITERION.OTHER.CONTRACT.GUARANTEE')).id;
  const award = data.awards.find((a: any) => a.status === 'pending');
  const winner = bids.find((b) => b.id === award.bid_id)!;
  const winnerKey = winner === bids[0] ? 'broker1' : 'broker2';
  const read = async () =>
    (await server.request('GET', `${bidsOf(tender)}/${winner.id}`, { key: winnerKey, token: winner.token })).body.data;
  const responseOf = (bid: any, requirementId: string) => bid.requirementResponses.find((r: any) => r.requirement.id === requirementId);
  const evidences = (responseId: string) => `${bidsOf(tender)}/${winner.id}/requirement_responses/${responseId}/evidences`;
  const add = (responseId: string, data: unknown, key = winnerKey, token = winner.token) =>
    server.request('POST', evidences(responseId), { key, token, body: { data } });
  const guarantee = responseOf(await read(), guaranteeId);
  const evidence = { title: 'Банківська гарантія', type: 'statement' };
  t.match(await add(guarantee.id, evidence), errorReply(403, 'body', 'data', 'Winner criteria available only with active award'));
  t.match(await add(guarantee.id, evidence, 'broker3'), errorReply(403, 'url', 'permission', 'Forbidden'));
  t.match(await add('0'.repeat(32), evidence), errorReply(404, 'url', 'requirement_response_id', 'Not Found'));
  const other = (await read()).requirementResponses.find((r: any) => r.id !== guarantee.id);
  t.match(
    await add(other.id, evidence),
    errorReply(
      403,
      'body',
      'data',
      "Can't post object if tender not in ['draft', 'draft.pending', 'draft.stage2', 'active.tendering'] statuses",
    ),
  );
  t.equal((await patchAward(server, tender, award.id, decision('active', true, true))).status, 200);
  t.match(
    await add(guarantee.id, { title: 'Гарантія', type: 'document' }),
    errorReply(422, 'body', 'relatedDocument', ['This field is required.']),
  );
  const res = await add(guarantee.id, evidence);
  t.equal(res.status, 201, res.text);
  t.match(res.body.data, { id: /^[0-9a-f]{32}$/, title: 'Банківська гарантія', type: 'statement' });
  t.same(responseOf(await read(), guaranteeId).evidences, [res.body.data], 'the evidence is in the bid');
});

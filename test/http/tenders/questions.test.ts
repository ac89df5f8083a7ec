import t from 'tap';
import { updateOf } from '../../../src/domain/save-rules';
import { aTenderer } from '../../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCompetitiveOrderingTender,
  aLot,
  anItem,
  competitiveOrderingConfig,
  createLottedTender,
  createTender,
  insertAgreement,
  supplier,
  type Created,
} from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

/** The tutorial's question (ask-question.http). */
const aQuestion = (author: Record<string, unknown> = aTenderer('00137226'), overrides: Record<string, unknown> = {}) => ({
  author,
  description: 'Просимо додати таблицю потрібної калорійності харчування',
  title: 'Калорійність',
  ...overrides,
});
const ask = (tender: Created, data: unknown, key = 'broker1') =>
  server.request('POST', `/api/2.5/tenders/${tender.id}/questions`, { key, body: { data } });
const answer = (tender: Created, questionId: string, data: unknown, token = tender.token) =>
  server.request('PATCH', `/api/2.5/tenders/${tender.id}/questions/${questionId}`, { key: 'broker', token, body: { data } });

async function tenderInEnquiries(): Promise<Created> {
  const tender = await createLottedTender(server);
  const reply = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  if (reply.status !== 200) throw new Error(reply.text);
  return tender;
}

t.test('the tutorial flow: ask, answer, list and read; the author is only ever a hash', async (t) => {
  const tender = await tenderInEnquiries();
  const asked = await ask(tender, aQuestion());
  t.equal(asked.status, 201, asked.text);
  const question = asked.body.data;
  t.same(question, {
    id: question.id,
    author: { hash: question.author.hash },
    title: 'Калорійність',
    description: 'Просимо додати таблицю потрібної калорійності харчування',
    questionOf: 'tender',
    date: '2026-10-05T12:00:00+03:00',
  });
  t.match(question.author.hash, /^[0-9a-f]{32}$/);
  t.equal(asked.headers.get('location'), `${server.url}/api/2.5/tenders/${tender.id}/questions/${question.id}`);

  server.clock.advance(60_000);
  const answered = await answer(tender, question.id, { answer: 'Таблицю додано в файлі "Kalorijnist.xslx"' });
  t.equal(answered.status, 200);
  t.same(answered.body.data, {
    ...question,
    answer: 'Таблицю додано в файлі "Kalorijnist.xslx"',
    dateAnswered: '2026-10-05T12:01:00+03:00',
  });
  t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/questions`)).body.data, [answered.body.data]);
  t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/questions/${question.id}`)).body.data, answered.body.data);

  for (const key of [undefined, 'broker', 'broker1', 'brokerr']) {
    const view = await server.request('GET', `/api/2.5/tenders/${tender.id}`, { key });
    t.same(view.body.data.questions, [answered.body.data], `the tender view, key ${key ?? 'none'}`);
    t.notMatch(view.text, /00137226|Школяр/, `no author detail, key ${key ?? 'none'}`);
  }
});

t.test('the same author gets the same hash within a tender, another author another one', async (t) => {
  const tender = await tenderInEnquiries();
  const first = (await ask(tender, aQuestion())).body.data.author.hash;
  const again = (await ask(tender, aQuestion(aTenderer('00137226'), { title: 'Ще раз' }), 'broker2')).body.data.author.hash;
  const other = (await ask(tender, aQuestion(aTenderer('99999999')))).body.data.author.hash;
  t.equal(again, first);
  t.not(other, first);
  const elsewhere = await tenderInEnquiries();
  t.not((await ask(elsewhere, aQuestion())).body.data.author.hash, first, 'salted per tender');
});

t.test('questions about a lot or an item name it', async (t) => {
  const tender = await tenderInEnquiries();
  const lotId = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.lots[0].id;
  const aboutLot = await ask(tender, aQuestion(undefined, { questionOf: 'lot', relatedItem: lotId }));
  t.equal(aboutLot.status, 201);
  t.match(aboutLot.body.data, { questionOf: 'lot', relatedItem: lotId });
  t.match(await ask(tender, aQuestion(undefined, { questionOf: 'lot' })), error(422, 'body', 'relatedItem', ['This field is required.']));
  t.match(
    await ask(tender, aQuestion(undefined, { questionOf: 'item', relatedItem: lotId })),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of items']),
  );
});

t.test('refused questions and answers answer the reference errors and store nothing', async (t) => {
  const draft = await createLottedTender(server);
  t.match(await ask(draft, aQuestion()), error(403, 'body', 'data', 'Can add question only in enquiryPeriod'));
  const tender = await tenderInEnquiries();
  const question = (await ask(tender, aQuestion())).body.data;
  const before = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body;

  t.match(
    await server.request('POST', `/api/2.5/tenders/${tender.id}/questions`, { body: { data: aQuestion() } }),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  t.match(await ask(tender, aQuestion(undefined, { title: undefined })), error(422, 'body', 'title', ['This field is required.']));
  t.match(await ask(tender, { ...aQuestion(), colour: 'red' }), error(422, 'body', 'colour', 'Rogue field'));
  t.match(
    await ask(tender, aQuestion(undefined, { questionOf: 'bid' })),
    error(422, 'body', 'questionOf', ["Value must be one of ['tender', 'lot', 'item']."]),
  );
  const withoutToken = server.request('PATCH', `/api/2.5/tenders/${tender.id}/questions/${question.id}`, {
    key: 'broker',
    body: { data: { answer: 'x' } },
  });
  t.match(await withoutToken, error(403, 'url', 'permission', 'Forbidden'));
  t.match(await answer(tender, question.id, { answer: 'x' }, 'f'.repeat(32)), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await answer(tender, question.id, {}), error(422, 'body', 'answer', ['This field is required.']));
  t.match(await answer(tender, 'f'.repeat(32), { answer: 'x' }), error(404, 'url', 'question_id', 'Not Found'));
  t.match(
    await server.request('GET', `/api/2.5/tenders/${tender.id}/questions/${'f'.repeat(32)}`),
    error(404, 'url', 'question_id', 'Not Found'),
  );
  t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body, before, 'the tender is unchanged');

  // After the enquiry period nobody may ask; after clarificationsUntil (2026-10-13 for this tender) nobody may answer.
  server.clock.set(new Date('2026-10-12T00:00:01+03:00'));
  t.match(await ask(tender, aQuestion()), error(403, 'body', 'data', 'Can add question only in enquiryPeriod'));
  server.clock.set(new Date('2026-10-13T00:00:01+03:00'));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } });
  t.match(
    await answer(tender, question.id, { answer: 'late' }),
    error(403, 'body', 'data', 'Allowed to update question only before enquiryPeriod.clarificationsUntil'),
  );
  server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
});

t.test('competitiveOrdering: only suppliers of the agreement may ask', async (t) => {
  const agreementId = await insertAgreement(server);
  const lotId = 'e'.repeat(32);
  const created = await createTender(
    server,
    aCompetitiveOrderingTender(agreementId, { lots: [aLot({ id: lotId })], items: [anItem({ relatedLot: lotId })] }),
    competitiveOrderingConfig(),
  );
  // Activation needs criteria that are not this test's subject: the tender is put in active.tendering directly.
  const session = server.store.session();
  const stored = (await session.get('tenders', created.id))!;
  await session.commit([updateOf(stored, { ...stored.doc, data: { ...stored.doc.data, status: 'active.tendering' } })]);

  const outsider = await ask(created, aQuestion(aTenderer('12345678')));
  t.match(outsider, error(403, 'body', 'data', 'Forbidden to add question for non-qualified suppliers'));
  const member = supplier('Постачальник 1', '10000000');
  const asked = await ask(created, aQuestion({ ...aTenderer('10000000'), name: member.name, identifier: member.identifier }));
  t.equal(asked.status, 201, asked.text);
});

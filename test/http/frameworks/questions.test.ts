import t from 'tap';
import { startTestServer } from '../../fixtures/server';
import { DAY, aQuestion, activeFramework, createFramework, err, storedDoc } from '../../fixtures/frameworks';

t.test('framework questions (basic-actions/http/questions)', async (t) => {
  const server = await startTestServer({ now: new Date('2023-01-01T00:00:00+02:00') });
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const base = `/api/2.5/frameworks/${framework.id}/questions`;
  const asked = await server.request('POST', base, { key: 'broker2', body: { data: aQuestion() } });

  t.test('a broker asks inside enquiryPeriod without the framework token → 201 with date', async (t) => {
    t.equal(asked.status, 201);
    t.same(asked.body, { data: { id: asked.body.data.id, ...aQuestion(), date: '2023-01-01T00:00:00+02:00' } });
  });

  t.test('refused questions → exact errors, framework unchanged', async (t) => {
    const draft = await createFramework(server);
    const cases: [string, string, Record<string, unknown>, number, unknown][] = [
      ['anonymous', base, { body: { data: aQuestion() } }, 403, err('url', 'permission', 'Forbidden')],
      [
        'title missing',
        base,
        { key: 'broker2', body: { data: { ...aQuestion(), title: undefined } } },
        422,
        err('body', 'title', ['This field is required.']),
      ],
      ['author missing', base, { key: 'broker2', body: { data: { title: 'x' } } }, 422, err('body', 'author', ['This field is required.'])],
      [
        'a draft framework',
        `/api/2.5/frameworks/${draft.id}/questions`,
        { key: 'broker2', body: { data: aQuestion() } },
        403,
        err('body', 'data', "Can't add question in current (draft) framework status"),
      ],
    ];
    for (const [what, path, o, status, body] of cases) {
      const before = await storedDoc(server, 'frameworks', framework.id);
      const reply = await server.request('POST', path, o);
      t.same([reply.status, reply.body], [status, body], what);
      t.same(await storedDoc(server, 'frameworks', framework.id), before, `${what}: nothing stored`);
    }
  });

  t.test('answering without the framework token → 403 permission', async (t) => {
    const reply = await server.request('PATCH', `${base}/${asked.body.data.id}`, { key: 'broker', body: { data: { answer: 'x' } } });
    t.same([reply.status, reply.body], [403, err('url', 'permission', 'Forbidden')]);
  });

  t.test('an answer without answer → 422 required; with another field → Rogue field', async (t) => {
    const empty = await server.request('PATCH', `${base}/${asked.body.data.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: {} },
    });
    t.same([empty.status, empty.body], [422, err('body', 'answer', ['This field is required.'])]);
    const rogue = await server.request('PATCH', `${base}/${asked.body.data.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { answer: 'x', title: 'y' } },
    });
    t.same([rogue.status, rogue.body], [422, err('body', 'title', 'Rogue field')]);
  });

  t.test('the framework owner answers → 200 with answer and dateAnswered; list and get show it', async (t) => {
    const reply = await server.request('PATCH', `${base}/${asked.body.data.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { answer: 'Таблицю додано в файлі' } },
    });
    t.equal(reply.status, 200);
    t.match(reply.body.data, { answer: 'Таблицю додано в файлі', dateAnswered: '2023-01-01T00:00:00+02:00' });
    const list = await server.request('GET', base);
    t.same(list.body, { data: [reply.body.data] });
    const one = await server.request('GET', `${base}/${asked.body.data.id}`);
    t.same(one.body, { data: reply.body.data });
    const missing = await server.request('GET', `${base}/${'c'.repeat(32)}`);
    t.same([missing.status, missing.body], [404, err('url', 'question_id', 'Not Found')]);
  });

  t.test('after the enquiry period → 403 with the period in the text', async (t) => {
    server.clock.advance(14 * DAY);
    const reply = await server.request('POST', base, { key: 'broker2', body: { data: aQuestion() } });
    t.same(
      [reply.status, reply.body],
      [
        403,
        err(
          'body',
          'data',
          'Question can be add only during the enquiry period: from (2023-01-01T00:00:00+02:00) to (2023-01-14T00:00:00+02:00).',
        ),
      ],
    );
  });

  t.test('answering before clarificationsUntil still works; after it → 403', async (t) => {
    const before = await server.request('PATCH', `${base}/${asked.body.data.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { answer: 'Таблицю' } },
    });
    t.equal(before.status, 200);
    server.clock.advance(5 * DAY);
    const after = await server.request('PATCH', `${base}/${asked.body.data.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { answer: 'Таблицю додано' } },
    });
    t.same(
      [after.status, after.body],
      [403, err('body', 'data', 'Allowed to update question only before enquiryPeriod.clarificationsUntil')],
    );
  });
});

t.test(
  'questions of a framework with restricted derivatives: hidden for readers other than its owner, the asker and r brokers',
  async (t) => {
    const server = await startTestServer({ now: new Date('2027-01-01T00:00:00+02:00') });
    t.teardown(() => server.close());
    const framework = await activeFramework(server, { restricted: true });
    const base = `/api/2.5/frameworks/${framework.id}/questions`;
    const asked = await server.request('POST', base, { key: 'broker2', body: { data: aQuestion() } });
    const id = asked.body.data.id;
    t.same(
      asked.body.data,
      { id, ...aQuestion(), date: asked.body.data.date },
      'the asker gets its own question whole in the 201 (issue 17)',
    );
    for (const key of ['broker', 'brokerr', 'broker2']) {
      t.same((await server.request('GET', `${base}/${id}`, { key })).body.data.author, aQuestion().author, `${key} sees the author`);
    }
    for (const key of ['', 'broker1']) {
      const q = (await server.request('GET', `${base}/${id}`, { key })).body.data;
      t.match(
        q,
        {
          title: 'Приховано',
          description: 'Приховано',
          author: {
            name: 'Приховано',
            identifier: { scheme: 'UA-EDR', id: 'Приховано', legalName: 'Приховано', uri: 'http://www.sc.gov.ua/' },
            address: { countryName: 'Приховано', streetAddress: 'Приховано' },
            contactPoint: { email: 'Приховано', name: 'Приховано' },
          },
        },
        `${key || 'anonymous'} gets the hidden view`,
      );
    }
  },
);

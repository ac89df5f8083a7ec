import t from 'tap';
import { err, startTestServer, type TestServer } from '../../fixtures/server';
import { DAY, aFramework, activateFramework, createFramework, storedDoc } from '../../fixtures/frameworks';

async function serverAt(t: { teardown(fn: () => unknown): void }, iso: string): Promise<TestServer> {
  const server = await startTestServer({ now: new Date(iso) });
  t.teardown(() => server.close());
  return server;
}

t.test('activation on Friday 2027-01-01 00:00 → the periods of the reference (dps/tutorial)', async (t) => {
  const server = await serverAt(t, '2027-01-01T00:00:00+02:00');
  const framework = await createFramework(server, {
    data: aFramework(server.clock.now(), { qualificationPeriod: { endDate: '2028-02-05T00:00:00+02:00' } }),
  });
  const reply = await activateFramework(server, framework);
  t.match(reply.body.data, {
    status: 'active',
    enquiryPeriod: {
      startDate: '2027-01-01T00:00:00+02:00',
      endDate: '2027-01-15T00:00:00+02:00',
      clarificationsUntil: '2027-01-20T00:00:00+02:00',
    },
    period: { startDate: '2027-01-01T00:00:00+02:00', endDate: '2028-01-06T00:00:00+02:00' },
    qualificationPeriod: { startDate: '2027-01-01T00:00:00+02:00', endDate: '2028-02-05T00:00:00+02:00' },
    next_check: '2027-01-16T00:00:00+02:00',
    date: '2027-01-01T00:00:00+02:00',
  });
  const read = await server.request('GET', `/api/2.5/frameworks/${framework.id}`);
  t.same(read.body, reply.body, 'GET shows what the PATCH answered');
});

t.test('activation on Sunday 2023-01-01 00:00 → enquiry ends Saturday 2023-01-14, clarificationsUntil 2023-01-19', async (t) => {
  const server = await serverAt(t, '2023-01-01T00:00:00+02:00');
  const framework = await createFramework(server);
  const reply = await activateFramework(server, framework);
  t.same(reply.body.data.enquiryPeriod, {
    startDate: '2023-01-01T00:00:00+02:00',
    endDate: '2023-01-14T00:00:00+02:00',
    clarificationsUntil: '2023-01-19T00:00:00+02:00',
  });
});

t.test('activation at Monday noon → enquiry ends at the end of the 10th working day after it', async (t) => {
  const server = await serverAt(t, '2026-10-05T12:00:00+03:00');
  const framework = await createFramework(server);
  const reply = await activateFramework(server, framework);
  t.same(reply.body.data.enquiryPeriod, {
    startDate: '2026-10-05T12:00:00+03:00',
    endDate: '2026-10-20T00:00:00+03:00',
    clarificationsUntil: '2026-10-23T00:00:00+03:00',
  });
});

t.test('PATCH /frameworks/{id}', async (t) => {
  const server = await serverAt(t, '2027-01-01T00:00:00+02:00');
  const now = server.clock.now();

  t.test('a draft edit by the owner → 200, merged, dateModified moves', async (t) => {
    const framework = await createFramework(server);
    server.clock.advance(60_000);
    const reply = await server.request('PATCH', `/api/2.5/frameworks/${framework.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { title: 'updated in draft status', procuringEntity: { contactPoint: { telephone: '+0440000001' } } } },
    });
    t.equal(reply.status, 200);
    t.equal(reply.body.data.title, 'updated in draft status');
    t.same(reply.body.data.procuringEntity.contactPoint, {
      name: 'Державне управління справами',
      telephone: '+0440000001',
      email: 'aa@aa.com',
    });
    t.equal(reply.body.data.dateModified, '2027-01-01T00:01:00+02:00');
    t.equal(reply.body.data.status, 'draft');
    server.clock.set(now);
  });

  t.test('the token in the X-Access-Token header → accepted', async (t) => {
    const framework = await createFramework(server);
    const reply = await server.request('PATCH', `/api/2.5/frameworks/${framework.id}`, {
      key: 'broker',
      token: framework.token,
      tokenIn: 'header',
      body: { data: { description: 'x' } },
    });
    t.equal(reply.status, 200);
  });

  t.test('refused PATCHes → exact errors and the stored framework unchanged', async (t) => {
    const framework = await createFramework(server);
    const short = await createFramework(server, { data: aFramework(now, {}, 300) });
    const long = await createFramework(server, { data: aFramework(now, {}, 1500) });
    const active = await createFramework(server);
    await activateFramework(server, active);
    const patch = (id: string, o: Record<string, unknown>) => server.request('PATCH', `/api/2.5/frameworks/${id}`, { key: 'broker', ...o });
    const cases: [string, string, () => Promise<any>, number, unknown][] = [
      [
        'no token',
        framework.id,
        () => patch(framework.id, { body: { data: { status: 'active' } } }),
        403,
        err('url', 'permission', 'Forbidden'),
      ],
      [
        'a wrong token',
        framework.id,
        () => patch(framework.id, { token: 'f'.repeat(32), body: { data: { status: 'active' } } }),
        403,
        err('url', 'permission', 'Forbidden'),
      ],
      [
        'another broker with the token',
        framework.id,
        () =>
          server.request('PATCH', `/api/2.5/frameworks/${framework.id}`, {
            key: 'broker1',
            token: framework.token,
            body: { data: { status: 'active' } },
          }),
        403,
        err('url', 'permission', 'Forbidden'),
      ],
      [
        'activation with a title edit',
        framework.id,
        () => patch(framework.id, { token: framework.token, body: { data: { status: 'active', title: 'x' } } }),
        422,
        err('body', 'title', 'Rogue field'),
      ],
      [
        'status draft',
        framework.id,
        () => patch(framework.id, { token: framework.token, body: { data: { status: 'draft' } } }),
        422,
        err('body', 'status', ["Value must be one of ['active', 'complete', 'unsuccessful']."]),
      ],
      [
        'status complete',
        framework.id,
        () => patch(framework.id, { token: framework.token, body: { data: { status: 'complete' } } }),
        403,
        err('body', 'data', "Can't switch to complete status"),
      ],
      [
        'qualificationPeriod under 365 days',
        short.id,
        () => patch(short.id, { token: short.token, body: { data: { status: 'active' } } }),
        403,
        err('body', 'data', "qualificationPeriod couldn't be less than 365 full calendar days long"),
      ],
      [
        'qualificationPeriod over 1461 days',
        long.id,
        () => patch(long.id, { token: long.token, body: { data: { status: 'active' } } }),
        403,
        err('body', 'data', "qualificationPeriod couldn't be more than 1461 full calendar days long"),
      ],
      [
        'an active framework title edit',
        active.id,
        () => patch(active.id, { token: active.token, body: { data: { title: 'x' } } }),
        422,
        err('body', 'title', 'Rogue field'),
      ],
      [
        'data missing',
        framework.id,
        () => patch(framework.id, { token: framework.token, body: {} }),
        422,
        err('body', 'data', 'Data not available'),
      ],
    ];
    for (const [what, id, send, status, body] of cases) {
      const before = await storedDoc(server, 'frameworks', id);
      const reply = await send();
      t.equal(reply.status, status, what);
      t.same(reply.body, body, what);
      t.same(await storedDoc(server, 'frameworks', id), before, `${what}: nothing stored`);
    }
    const unknown = await patch('a'.repeat(32), { token: framework.token, body: { data: {} } });
    t.same([unknown.status, unknown.body], [404, err('url', 'framework_id', 'Not Found')]);
  });

  t.test('an active framework description edit → 200, periods kept', async (t) => {
    const framework = await createFramework(server);
    const activated = await activateFramework(server, framework);
    server.clock.advance(DAY);
    const reply = await server.request('PATCH', `/api/2.5/frameworks/${framework.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { description: 'new' } },
    });
    t.equal(reply.status, 200);
    t.same(reply.body.data.enquiryPeriod, activated.body.data.enquiryPeriod);
    t.same(reply.body.data.period, activated.body.data.period);
    server.clock.set(now);
  });
});

t.test('GET /frameworks/{id} unknown → 404 framework_id; feed lists active frameworks only', async (t) => {
  const server = await serverAt(t, '2027-01-01T00:00:00+02:00');
  const missing = await server.request('GET', `/api/2.5/frameworks/${'b'.repeat(32)}`);
  t.same([missing.status, missing.body], [404, err('url', 'framework_id', 'Not Found')]);
  await createFramework(server);
  const active = await createFramework(server);
  await activateFramework(server, active);
  const feed = await server.request('GET', '/api/2.5/frameworks?opt_fields=status,prettyID,owner');
  t.same(
    feed.body.data.map((e: any) => Object.keys(e).sort()),
    [['dateModified', 'id', 'prettyID', 'status']],
    'owner is not an allowed field',
  );
  t.equal(feed.body.data[0].id, active.id);
  t.match(feed.body.next_page, {
    path: /^\/api\/2\.5\/frameworks\?opt_fields=prettyID%2Cstatus&offset=\d+(\.\d+)?$/,
    uri: new RegExp(`^${server.url}/`),
  });
});

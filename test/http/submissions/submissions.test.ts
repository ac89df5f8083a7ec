import t from 'tap';
import { startTestServer } from '../../fixtures/server';
import {
  DAY,
  aTenderer,
  activeFramework,
  activeSubmission,
  createFramework,
  createSubmission,
  decideQualification,
  err,
  storedDoc,
} from '../../fixtures/frameworks';

t.test('submissions', async (t) => {
  const server = await startTestServer({ now: new Date('2027-01-01T00:00:00+02:00') });
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const restricted = await activeFramework(server, { restricted: true });
  const draft = await createFramework(server);
  const post = (data: unknown, o: Record<string, unknown> = {}) =>
    server.request('POST', '/api/2.5/submissions', { key: 'broker1', body: { data, ...o } });

  t.test('a broker submits without the framework token → 201 draft with access, config and Location', async (t) => {
    const { reply } = await createSubmission(server, framework.id, { config: { restricted: false } });
    t.equal(reply.headers.get('location'), `${server.url}/api/2.5/submissions/${reply.body.data.id}`);
    t.same(reply.body.data, {
      tenderers: [aTenderer()],
      frameworkID: framework.id,
      status: 'draft',
      submissionType: 'dynamicPurchasingSystem',
      owner: 'broker1',
      date: '2027-01-01T00:00:00+02:00',
      dateModified: '2027-01-01T00:00:00+02:00',
      id: reply.body.data.id,
    });
    t.same(reply.body.config, { restricted: false });
    t.match(reply.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
  });

  t.test('config.restricted omitted → follows the framework', async (t) => {
    const { reply } = await createSubmission(server, restricted.id);
    t.same(reply.body.config, { restricted: true });
  });

  t.test('refused POSTs → exact errors', async (t) => {
    const cases: [string, () => Promise<any>, number, unknown][] = [
      [
        'anonymous',
        () => server.request('POST', '/api/2.5/submissions', { body: { data: {} } }),
        403,
        err('url', 'permission', 'Forbidden'),
      ],
      [
        'an unknown framework',
        () => post({ tenderers: [aTenderer()], frameworkID: 'd'.repeat(32) }),
        422,
        err('body', 'frameworkID', ['frameworkID must be one of exists frameworks']),
      ],
      ['frameworkID missing', () => post({ tenderers: [aTenderer()] }), 422, err('body', 'frameworkID', ['This field is required.'])],
      [
        'tenderer without postalCode and email',
        () =>
          post({
            tenderers: [
              aTenderer('1', {
                address: { countryName: 'Україна', streetAddress: 'x', locality: 'x', region: 'x' },
                contactPoint: { name: 'x' },
              }),
            ],
            frameworkID: framework.id,
          }),
        422,
        err('body', 'tenderers', [
          { address: { postalCode: ['This field is required.'] }, contactPoint: { email: ['This field is required.'] } },
        ]),
      ],
      [
        'a draft framework',
        () => post({ tenderers: [aTenderer()], frameworkID: draft.id }),
        403,
        err('body', 'data', 'Submission cannot be add without framework period'),
      ],
      [
        'restricted true on an open framework',
        () => post({ tenderers: [aTenderer()], frameworkID: framework.id }, { config: { restricted: true } }),
        422,
        err('body', 'config.restricted', ['restricted must be false for framework with restrictedDerivatives false']),
      ],
      [
        'restricted false on a restricted framework',
        () => post({ tenderers: [aTenderer()], frameworkID: restricted.id }, { config: { restricted: false } }),
        422,
        err('body', 'config.restricted', ['restricted must be true for framework with restrictedDerivatives true']),
      ],
      ['data not an object', () => post([1]), 422, err('body', 'data', 'Data not available')],
    ];
    for (const [what, send, status, body] of cases) {
      const before = (await server.request('GET', '/api/2.5/submissions?mode=_all_')).body.data;
      const reply = await send();
      t.same([reply.status, reply.body], [status, body], what);
      t.same((await server.request('GET', '/api/2.5/submissions?mode=_all_')).body.data, before, `${what}: feed unchanged`);
    }
  });

  t.test('PATCH by the owner: draft edit → 200; without token → 403; by another broker → 403', async (t) => {
    const s = await createSubmission(server, framework.id);
    const edited = await server.request('PATCH', `/api/2.5/submissions/${s.id}`, {
      key: 'broker1',
      token: s.token,
      body: { data: { tenderers: [aTenderer('00137256', { name: 'НАЗВА' })] } },
    });
    t.equal(edited.status, 200);
    t.equal(edited.body.data.tenderers[0].name, 'НАЗВА');
    const before = await storedDoc(server, 'submissions', s.id);
    for (const o of [{ key: 'broker1' }, { key: 'broker2', token: s.token }, { key: '', token: s.token }]) {
      const reply = await server.request('PATCH', `/api/2.5/submissions/${s.id}`, { ...o, body: { data: { status: 'active' } } });
      t.same([reply.status, reply.body], [403, err('url', 'permission', 'Forbidden')]);
    }
    const rogue = await server.request('PATCH', `/api/2.5/submissions/${s.id}`, {
      key: 'broker1',
      token: s.token,
      body: { data: { frameworkID: restricted.id } },
    });
    t.same([rogue.status, rogue.body], [422, err('body', 'frameworkID', 'Rogue field')]);
    const complete = await server.request('PATCH', `/api/2.5/submissions/${s.id}`, {
      key: 'broker1',
      token: s.token,
      body: { data: { status: 'complete' } },
    });
    t.same(
      [complete.status, complete.body],
      [403, err('body', 'data', "Can't update submission from current (draft) to new (complete) status")],
    );
    t.same(await storedDoc(server, 'submissions', s.id), before, 'nothing stored');
    const missing = await server.request('PATCH', `/api/2.5/submissions/${'e'.repeat(32)}`, {
      key: 'broker1',
      token: s.token,
      body: { data: {} },
    });
    t.same([missing.status, missing.body], [404, err('url', 'submission_id', 'Not Found')]);
  });

  t.test('deletion → status deleted, out of the feed, still readable by id, then frozen', async (t) => {
    const s = await createSubmission(server, framework.id);
    const deleted = await server.request('PATCH', `/api/2.5/submissions/${s.id}`, {
      key: 'broker1',
      token: s.token,
      body: { data: { status: 'deleted' } },
    });
    t.equal(deleted.body.data.status, 'deleted');
    t.equal((await server.request('GET', `/api/2.5/submissions/${s.id}`)).body.data.status, 'deleted');
    t.notOk((await server.request('GET', '/api/2.5/submissions')).body.data.some((e: any) => e.id === s.id));
    const again = await server.request('PATCH', `/api/2.5/submissions/${s.id}`, {
      key: 'broker1',
      token: s.token,
      body: { data: { status: 'active' } },
    });
    t.same([again.status, again.body], [403, err('body', 'data', "Can't update submission in current (deleted) status")]);
  });

  t.test(
    'activation → datePublished, qualificationID and a pending qualification; a second active one of the tenderer → 403',
    async (t) => {
      server.clock.advance(DAY);
      const s = await activeSubmission(server, framework.id, { tenderer: aTenderer('11111111') });
      t.match(s.reply.body.data, {
        status: 'active',
        date: '2027-01-02T00:00:00+02:00',
        datePublished: '2027-01-02T00:00:00+02:00',
        qualificationID: /^[0-9a-f]{32}$/,
      });
      const q = await server.request('GET', `/api/2.5/qualifications/${s.qualificationID}`);
      t.match(q.body.data, { status: 'pending', submissionID: s.id, frameworkID: framework.id });
      const twin = await createSubmission(server, framework.id, { key: 'broker2', tenderer: aTenderer('11111111') });
      const before = await storedDoc(server, 'submissions', twin.id);
      const reply = await server.request('PATCH', `/api/2.5/submissions/${twin.id}`, {
        key: 'broker2',
        token: twin.token,
        body: { data: { status: 'active' } },
      });
      t.same(
        [reply.status, reply.body],
        [403, err('body', 'data', `Tenderer already have active submission for framework ${framework.id}`)],
      );
      t.same(await storedDoc(server, 'submissions', twin.id), before, 'nothing stored');
      const frozen = await server.request('PATCH', `/api/2.5/submissions/${s.id}`, {
        key: 'broker1',
        token: s.token,
        body: { data: { status: 'draft' } },
      });
      t.same([frozen.status, frozen.body], [403, err('body', 'data', "Can't update submission in current (active) status")]);

      t.test('after the qualification is active the tenderer holds a contract → new submissions and activations refused', async (t) => {
        await decideQualification(server, framework, s.qualificationID, 'active');
        const post2 = await post({ tenderers: [aTenderer('11111111')], frameworkID: framework.id });
        t.same(
          [post2.status, post2.body],
          [403, err('body', 'data', "Can't add submission when contract in agreement with same identifier.id in active status")],
        );
        const other = await createSubmission(server, framework.id, { tenderer: { ...aTenderer('22222222') } });
        const withContract = await server.request('PATCH', `/api/2.5/submissions/${other.id}`, {
          key: 'broker1',
          token: other.token,
          body: { data: { tenderers: [aTenderer('11111111')], status: 'active' } },
        });
        t.same(
          [withContract.status, withContract.body],
          [
            403,
            err(
              'body',
              'data',
              `Tenderer can't activate submission with active/suspended contract in agreement for framework ${framework.id}`,
            ),
          ],
        );
      });

      t.test('after the period → 403 with Python-style dates', async (t) => {
        const late = await createSubmission(server, framework.id, { tenderer: aTenderer('33333333') });
        const period = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data.period;
        server.clock.set(new Date(Date.parse(period.endDate) + 1000));
        const reply = await post({ tenderers: [aTenderer('44444444')], frameworkID: framework.id });
        const py = (iso: string) => iso.replace('T', ' ');
        t.same(
          [reply.status, reply.body],
          [
            403,
            err('body', 'data', `Submission can be add only during the period: from (${py(period.startDate)}) to (${py(period.endDate)}).`),
          ],
        );
        const patch = await server.request('PATCH', `/api/2.5/submissions/${late.id}`, {
          key: 'broker1',
          token: late.token,
          body: { data: { status: 'active' } },
        });
        t.same(
          [patch.status, patch.body],
          [
            403,
            err(
              'body',
              'data',
              `Submission can be update only during the period: from (${py(period.startDate)}) to (${py(period.endDate)}).`,
            ),
          ],
        );
      });
    },
  );
});

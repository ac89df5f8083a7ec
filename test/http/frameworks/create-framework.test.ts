import t from 'tap';
import { err, startTestServer } from '../../fixtures/server';
import { aFramework, aProcuringEntity, createFramework } from '../../fixtures/frameworks';

const NOW = new Date('2027-01-01T00:00:00+02:00');

t.test('POST /frameworks', async (t) => {
  const server = await startTestServer({ now: NOW });
  t.teardown(() => server.close());
  const post = (body: unknown, key = 'broker') => server.request('POST', '/api/2.5/frameworks', { key, body });
  const feedIds = async () => (await server.request('GET', '/api/2.5/frameworks?mode=_all_')).body.data.length;

  t.test('a valid framework → 201 draft with Location, prettyID, access and the config echoed with defaults', async (t) => {
    const { reply } = await createFramework(server, { config: { restrictedDerivatives: false } });
    t.equal(reply.status, 201);
    t.equal(reply.headers.get('location'), `${server.url}/api/2.5/frameworks/${reply.body.data.id}`);
    t.match(reply.body.data, {
      status: 'draft',
      prettyID: 'UA-F-2027-01-01-000001',
      owner: 'broker',
      frameworkType: 'dynamicPurchasingSystem',
      date: '2027-01-01T00:00:00+02:00',
      dateCreated: '2027-01-01T00:00:00+02:00',
      dateModified: '2027-01-01T00:00:00+02:00',
    });
    t.match(reply.body.data.id, /^[0-9a-f]{32}$/);
    t.match(reply.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
    t.same(reply.body.config, {
      restrictedDerivatives: false,
      clarificationUntilDuration: 3,
      qualificationComplainDuration: 0,
      hasItems: false,
    });
    t.notOk('next_check' in reply.body.data, 'a draft has no next_check');
  });

  t.test('the second framework of the day → prettyID counter 000002', async (t) => {
    const { reply } = await createFramework(server);
    t.equal(reply.body.data.prettyID, 'UA-F-2027-01-01-000002');
  });

  t.test('procuringEntity.kind defense without the flag → config.restrictedDerivatives true', async (t) => {
    const { reply } = await createFramework(server, { data: aFramework(NOW, { procuringEntity: aProcuringEntity({ kind: 'defense' }) }) });
    t.equal(reply.body.config.restrictedDerivatives, true);
  });

  t.test('refused requests store nothing', async (t) => {
    const before = await feedIds();
    const cases: [string, () => Promise<any>, number, unknown][] = [
      [
        'restrictedDerivatives true for a general entity',
        () => post({ data: aFramework(NOW), config: { restrictedDerivatives: true } }),
        422,
        err('body', 'config.restrictedDerivatives', ['restrictedDerivatives must be false for non-defense procuring entity']),
      ],
      ['no API key', () => post({ data: aFramework(NOW) }, ''), 403, err('url', 'permission', 'Forbidden')],
      ['an unknown API key', () => post({ data: aFramework(NOW) }, 'nobody'), 403, err('url', 'permission', 'Forbidden')],
      ['data not an object', () => post({ data: 'x' }), 422, err('body', 'data', 'Data not available')],
      [
        'title missing',
        () => post({ data: { ...aFramework(NOW), title: undefined } }),
        422,
        err('body', 'title', ['This field is required.']),
      ],
      ['an unknown field', () => post({ data: { ...aFramework(NOW), prettyID: 'x' } }), 422, err('body', 'prettyID', 'Rogue field')],
      [
        'a bad qualificationPeriod.endDate',
        () => post({ data: { ...aFramework(NOW), qualificationPeriod: { endDate: 'soon' } } }),
        422,
        err('body', 'qualificationPeriod', { endDate: ['Could not parse soon. Should be ISO8601.'] }),
      ],
      [
        'contactPoint without email',
        () => post({ data: aFramework(NOW, { procuringEntity: aProcuringEntity({ contactPoint: { name: 'x' } }) }) }),
        422,
        err('body', 'procuringEntity', { contactPoint: { email: ['This field is required.'] } }),
      ],
      [
        'an unknown frameworkType',
        () => post({ data: { ...aFramework(NOW), frameworkType: 'x' } }),
        422,
        err('body', 'frameworkType', ["Value must be one of ['dynamicPurchasingSystem']."]),
      ],
      [
        'an unknown config key',
        () => post({ data: aFramework(NOW), config: { x: 1 } }),
        422,
        err('body', 'config', "Additional properties are not allowed ('x' was unexpected)"),
      ],
      [
        'clarificationUntilDuration out of range',
        () => post({ data: aFramework(NOW), config: { clarificationUntilDuration: 4 } }),
        422,
        err('body', 'config.clarificationUntilDuration', '4 is greater than the maximum of 3'),
      ],
      [
        'hasItems false with items',
        () => post({ data: aFramework(NOW, { items: [{ description: 'x' }] }) }),
        422,
        err('body', 'items', 'Items are not allowed for framework with hasItems set to false'),
      ],
    ];
    for (const [what, send, status, body] of cases) {
      const reply = await send();
      t.equal(reply.status, status, what);
      t.same(reply.body, body, what);
    }
    const malformed = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', raw: '{"data": ' });
    t.equal(malformed.status, 422, 'malformed JSON');
    t.equal(malformed.body.errors[0].description, 'Expecting value: line 1 column 10 (char 9)');
    // Drafts are not in feeds: compare the stored count through the prettyID counter instead.
    t.equal(await feedIds(), before);
    const next = await createFramework(server);
    t.equal(next.reply.body.data.prettyID, 'UA-F-2027-01-01-000004', 'no refused request took a prettyID');
  });
});

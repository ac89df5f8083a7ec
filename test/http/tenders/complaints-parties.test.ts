import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { getTender } from '../../fixtures/cancellations';
import { aComplaint, anObjection, complainableTender, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';
import type { Created } from '../../fixtures/tenders';

/**
 * Every move of a complaint tried by every party that may not make it: the reference's refusal, and nothing stored
 * changes (docs/tenders.md §Complaints: who moves a complaint).
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const REVIEW = { reviewDate: '2026-10-10T00:00:00+03:00', reviewPlace: 'Place of review' };
const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

interface Made {
  tender: Created;
  one: string;
  token: string;
}

/** The steps that bring a draft to each status, each by its rightful party. */
const STEPS: Record<string, [unknown, string, 'complaint' | 'tender' | null][]> = {
  draft: [],
  pending: [[{ status: 'pending' }, 'bot', null]],
  accepted: [
    [{ status: 'pending' }, 'bot', null],
    [{ status: 'accepted', ...REVIEW }, 'reviewer', null],
  ],
  satisfied: [
    [{ status: 'pending' }, 'bot', null],
    [{ status: 'accepted', ...REVIEW }, 'reviewer', null],
    [{ status: 'satisfied' }, 'reviewer', null],
  ],
};

async function complaintIn(status: string): Promise<Made> {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  const token = made.body.access.token;
  for (const [data, key, owner] of STEPS[status]) {
    const res = await patchComplaint(server, one, data, key, owner === 'complaint' ? token : owner === 'tender' ? tender.token : undefined);
    if (res.status !== 200) throw new Error(`${status}: ${res.status} ${res.text}`);
  }
  return { tender, one, token };
}

const FORBIDDEN = error(403, 'url', 'permission', 'Forbidden');
const cannot = (from: string, to: string) => error(403, 'body', 'data', `Can't update complaint from ${from} to ${to} status`);
/** The tender owner's model under review takes only `tendererAction`: every other member sent is a Rogue field. */
const rogue = (data: Record<string, unknown>) => ({
  status: 422,
  body: { status: 'error', errors: Object.keys(data).map((name) => ({ location: 'body', name, description: 'Rogue field' })) },
});

type Party = 'anonymous' | 'another broker' | 'complainant' | 'tender owner' | 'bot' | 'reviewer' | 'administrator';

interface Move {
  from: string;
  data: Record<string, unknown>;
  by: Party;
  others: Partial<Record<Party, unknown>>;
}

/** Each move, its rightful party, and what every other party gets. */
const MOVES: Move[] = [
  {
    from: 'draft',
    data: { status: 'pending' },
    by: 'bot',
    others: {
      complainant: cannot('draft', 'pending'),
      'tender owner': error(403, 'body', 'data', 'Forbidden'),
      reviewer: cannot('draft', 'pending'),
    },
  },
  {
    from: 'draft',
    data: { status: 'mistaken' },
    by: 'complainant',
    others: { 'tender owner': error(403, 'body', 'data', 'Forbidden'), reviewer: cannot('draft', 'mistaken') },
  },
  ...['accepted', 'invalid'].map((to): Move => ({
    from: 'pending',
    data: { status: to, ...REVIEW },
    by: 'reviewer',
    others: { complainant: cannot('pending', to), 'tender owner': rogue({ status: to, ...REVIEW }), bot: cannot('pending', to) },
  })),
  ...['declined', 'satisfied', 'stopped'].map((to): Move => ({
    from: 'accepted',
    data: { status: to },
    by: 'reviewer',
    others: { complainant: cannot('accepted', to), 'tender owner': rogue({ status: to }), bot: cannot('accepted', to) },
  })),
  {
    from: 'satisfied',
    data: { status: 'resolved', tendererAction: 'Умови виправлено' },
    by: 'tender owner',
    others: {
      complainant: cannot('satisfied', 'resolved'),
      bot: cannot('satisfied', 'resolved'),
      reviewer: cannot('satisfied', 'resolved'),
    },
  },
];

const send = (m: Made, party: Party, data: unknown) => {
  switch (party) {
    case 'anonymous':
      return patchComplaint(server, m.one, data, undefined);
    case 'another broker':
      return patchComplaint(server, m.one, data, 'broker2');
    case 'complainant':
      return patchComplaint(server, m.one, data, 'broker1', m.token);
    case 'tender owner':
      return patchComplaint(server, m.one, data, 'broker', m.tender.token);
    case 'bot':
      return patchComplaint(server, m.one, data, 'bot');
    case 'reviewer':
      return patchComplaint(server, m.one, data, 'reviewer');
    case 'administrator':
      return patchComplaint(server, m.one, data, 'admin');
  }
};

for (const { from, data, by, others } of MOVES) {
  t.test(`${from} → ${String(data.status)}: only the ${by}`, async (t) => {
    const made = await complaintIn(from);
    const before = await getTender(server, made.tender);
    // The administrator's model takes the fee only: every member of a move is a Rogue field to it.
    const refusals = { anonymous: FORBIDDEN, 'another broker': FORBIDDEN, administrator: rogue(data), ...others } as Record<Party, unknown>;
    for (const party of Object.keys(refusals) as Party[]) {
      t.same(reply(await send(made, party, data)), refusals[party], party);
    }
    // Another broker presenting a token of its own is no party to the complaint either.
    t.same(reply(await patchComplaint(server, made.one, data, 'broker2', made.tender.token)), FORBIDDEN, 'another broker, the owner token');
    t.same(await getTender(server, made.tender), before, 'nothing stored changes');
    const done = await send(made, by, data);
    t.equal(done.status, 200, `the ${by} moves it: ${done.text}`);
  });
}

t.test('a complaint no party may move any more: resolved, declined, mistaken', async (t) => {
  const made = await complaintIn('draft');
  await send(made, 'complainant', { status: 'mistaken' });
  for (const party of ['complainant', 'bot', 'reviewer'] as Party[]) {
    t.same(reply(await send(made, party, { status: 'pending' })), cannot('mistaken', 'pending'), party);
  }
  t.same(reply(await send(made, 'tender owner', { status: 'pending' })), error(403, 'body', 'data', 'Forbidden'));
});

t.test("the administrator changes a complaint's fee, in any status, and nothing else", async (t) => {
  const made = await complaintIn('pending');
  const before = await getTender(server, made.tender);
  const refused: [unknown, unknown][] = [
    [{ value: { amount: -1, currency: 'UAH' } }, error(422, 'body', 'value', { amount: ['Float value should be greater than 0.'] })],
    [
      { value: { amount: 103, currency: 'XYZ' } },
      error(422, 'body', 'value', { currency: ['Currency must be only UAH, USD, EUR, GBP, RUB.'] }),
    ],
    [{ value: { amount: 103 } }, error(422, 'body', 'value', { currency: ['This field is required.'] })],
    [
      { value: { amount: 103, currency: 'USD', valueAddedTaxIncluded: true } },
      error(422, 'body', 'value', { valueAddedTaxIncluded: 'Rogue field' }),
    ],
    [{ value: 'a lot' }, 422],
  ];
  for (const [data, expected] of refused) {
    const res = await send(made, 'administrator', data);
    if (typeof expected === 'number') t.equal(res.status, expected, res.text);
    else t.same(reply(res), expected, JSON.stringify(data));
  }
  for (const party of ['complainant', 'tender owner', 'bot', 'reviewer'] as Party[]) {
    t.equal(
      (await send(made, party, { value: { amount: 103, currency: 'USD' } })).status,
      ['tender owner', 'reviewer'].includes(party) ? 422 : 403, // their models have no `value`
      `${party} may not`,
    );
  }
  t.same(await getTender(server, made.tender), before, 'no refusal changed the tender');
  const changed = await send(made, 'administrator', { value: { amount: 103, currency: 'USD' } });
  t.equal(changed.status, 200, changed.text);
  t.same(changed.body.data.value, { amount: 103, currency: 'USD' });
  t.equal(changed.body.data.status, 'pending');
  t.same((await server.request('GET', made.one)).body.data.value, { amount: 103, currency: 'USD' }, 'stored');
  const posts = await server.request('POST', `${made.one}/posts`, {
    key: 'admin',
    body: { data: { title: 'q', description: 'q', recipient: 'tender_owner', relatedObjection: 'a'.repeat(32) } },
  });
  t.same(reply(posts), FORBIDDEN, 'no post by the administrator');
});

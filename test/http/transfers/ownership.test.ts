import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aPlan } from '../../fixtures/plans';
import { errorReply as error, startTestServer, type Reply, type TestServer } from '../../fixtures/server';
import { aTender, belowThresholdConfig, type Created } from '../../fixtures/tenders';

/**
 * docs/relocation.md. The key file of these tests: `broker` (which creates every fixture) and `brokerx` have left
 * (level `x`); `level2` may take nothing over; `broker3` takes objects over (levels 12345, no `x`).
 */
const dir = mkdtempSync(join(tmpdir(), 'relocation-auth-'));
const authFile = join(dir, 'auth.ini');
writeFileSync(
  authFile,
  readFileSync(join(__dirname, '../../../auth.ini'), 'utf8')
    .replace('broker = broker\n', 'broker = broker,12345x\n')
    .replace('[brokers]\n', '[brokers]\nlevel2 = level2,2\nlevel3 = level3,3\n'),
);

let server: TestServer;
t.before(async () => {
  server = await startTestServer({ env: { AUTH_FILE: authFile } });
});
t.teardown(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Transfer {
  id: string;
  token: string;
  transfer: string;
}

async function newTransfer(key = 'broker3', on = server): Promise<Transfer> {
  const res = await on.request('POST', '/api/2.5/transfers', { key, body: { data: {} } });
  if (res.status !== 201) throw new Error(`transfer: ${res.status} ${res.text}`);
  return { id: res.body.data.id, ...res.body.access };
}

const takeOver = (kind: string, id: string, data: unknown, key = 'broker3', on = server): Promise<Reply> =>
  on.request('POST', `/api/2.5/${kind}/${id}/ownership`, { key, body: { data } });

async function tenderWithTransfer(): Promise<Created & { transfer: string }> {
  const res = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: { data: aTender(), config: belowThresholdConfig() },
  });
  return {
    id: res.body.data.id,
    token: res.body.access.token,
    data: res.body.data,
    config: res.body.config,
    transfer: res.body.access.transfer,
  };
}

t.test('POST /transfers by a broker → 201 with id, date, Location and two fresh tokens; GET shows id and date only', async (t) => {
  const res = await server.request('POST', '/api/2.5/transfers', { key: 'broker1', body: { data: {} } });
  t.equal(res.status, 201);
  t.same(Object.keys(res.body.data).sort(), ['date', 'id']);
  t.equal(res.body.data.date, '2026-10-05T12:00:00+03:00');
  t.match(res.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
  t.equal(res.headers.get('location'), `${server.url}/api/2.5/transfers/${res.body.data.id}`);
  const read = await server.request('GET', `/api/2.5/transfers/${res.body.data.id}`, { key: 'broker2' });
  t.same(read.body, { data: res.body.data });
});

t.test('transfers refuse: anonymous create or read → 403, a rogue member → 422, an unknown id → 404 transfer_id', async (t) => {
  t.match(await server.request('POST', '/api/2.5/transfers', { body: { data: {} } }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(
    await server.request('POST', '/api/2.5/transfers', { key: 'broker', body: { data: { owner: 'me' } } }),
    error(422, 'body', 'owner', 'Rogue field'),
  );
  const transfer = await newTransfer();
  t.match(await server.request('GET', `/api/2.5/transfers/${transfer.id}`), error(403, 'url', 'permission', 'Forbidden'));
  t.match(
    await server.request('GET', `/api/2.5/transfers/${'f'.repeat(32)}`, { key: 'broker' }),
    error(404, 'url', 'transfer_id', 'Not Found'),
  );
});

t.test("a draft tender moves to the transfer's broker: the new token activates it, the old token and transfer are refused", async (t) => {
  const tender = await tenderWithTransfer();
  const transfer = await newTransfer();
  const moved = await takeOver('tenders', tender.id, { id: transfer.id, transfer: tender.transfer });
  t.same(moved.body, { data: { id: tender.id, owner: 'broker3' } });
  t.equal(moved.status, 200);
  const used = (await server.request('GET', `/api/2.5/transfers/${transfer.id}`, { key: 'broker' })).body.data;
  t.equal(used.usedFor, `/tenders/${tender.id}`);

  const patch = (key: string, token: string) =>
    server.request('PATCH', `/api/2.5/tenders/${tender.id}`, { key, token, body: { data: { description: 'new owner' } } });
  t.match(await patch('broker', tender.token), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch('broker3', tender.token), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch('broker', transfer.token), error(403, 'url', 'permission', 'Forbidden'));
  const changed = await patch('broker3', transfer.token);
  t.equal(changed.status, 200);
  t.match(changed.body.data, { owner: 'broker3', description: 'new owner' });

  // broker3 has not left the platform: nobody may take the tender from it now.
  t.match(
    await takeOver('tenders', tender.id, { id: transfer.id, transfer: tender.transfer }, 'broker1'),
    error(403, 'url', 'accreditation', 'Owner Accreditation level does not permit ownership change'),
  );
  const other = await tenderWithTransfer();
  t.match(
    await takeOver('tenders', other.id, { id: transfer.id, transfer: other.transfer }),
    error(403, 'body', 'transfer', 'Transfer already used'),
  );
});

t.test("ownership refusals in the reference's order", async (t) => {
  const tender = await tenderWithTransfer();
  const transfer = await newTransfer();
  const url = `/api/2.5/tenders/${tender.id}/ownership`;
  const body = { data: { id: transfer.id, transfer: tender.transfer } };
  t.match(await server.request('POST', url, { body }), error(403, 'url', 'permission', 'Forbidden'), 'anonymous');
  t.match(await takeOver('tenders', 'f'.repeat(32), body.data), error(404, 'url', 'tender_id', 'Not Found'), 'unknown tender');
  t.match(
    await takeOver('tenders', tender.id, body.data, 'level3'),
    error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit ownership change'),
    'belowThreshold needs level 1 or 5',
  );
  t.match(await takeOver('tenders', tender.id, { id: 12 }), error(422, 'body', 'transfer', 'This field is required.'), 'no transfer');
  const both = await takeOver('tenders', tender.id, {});
  t.same(both.body.errors, [
    { location: 'body', name: 'id', description: 'This field is required.' },
    { location: 'body', name: 'transfer', description: 'This field is required.' },
  ]);
  t.match(
    await takeOver('tenders', tender.id, { id: 'fake id', transfer: 'трансфер з кирилицею' }),
    error(403, 'body', 'transfer', 'Invalid transfer'),
  );
  t.match(
    await takeOver('tenders', tender.id, { id: 'f'.repeat(32), transfer: tender.transfer }),
    error(404, 'url', 'transfer_id', 'Not Found'),
  );
  // An owner that has not left (no level `x`) keeps its objects.
  await takeOver('tenders', tender.id, body.data);
  t.match(
    await takeOver('tenders', tender.id, { id: (await newTransfer('brokerx')).id, transfer: transfer.transfer }, 'brokerx'),
    error(403, 'url', 'accreditation', 'Owner Accreditation level does not permit ownership change'),
  );
});

t.test('a plan: only a scheduled one moves; the new owner changes it, the old token is refused', async (t) => {
  const res = await server.request('POST', '/api/2.5/plans', {
    key: 'broker',
    body: { data: { ...aPlan(), status: 'draft' } },
  });
  const plan = { id: res.body.data.id, token: res.body.access.token, transfer: res.body.access.transfer };
  const transfer = await newTransfer();
  t.match(
    await takeOver('plans', plan.id, { id: transfer.id, transfer: plan.transfer }),
    error(403, 'body', 'data', "Can't update credentials in current (draft) plan status"),
  );
  t.match(
    await takeOver('plans', plan.id, { id: transfer.id, transfer: plan.transfer }, 'level2'),
    error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit ownership change'),
  );
  await server.request('PATCH', `/api/2.5/plans/${plan.id}`, { key: 'broker', token: plan.token, body: { data: { status: 'scheduled' } } });
  t.same((await takeOver('plans', plan.id, { id: transfer.id, transfer: plan.transfer })).body, {
    data: { id: plan.id, owner: 'broker3' },
  });
  const patch = (key: string, token: string) =>
    server.request('PATCH', `/api/2.5/plans/${plan.id}`, {
      key,
      token,
      body: { data: { budget: { ...res.body.data.budget, description: 'moved' } } },
    });
  t.match(await patch('broker', plan.token), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch('broker3', transfer.token), { status: 200, body: { data: { owner: 'broker3', budget: { description: 'moved' } } } });
});

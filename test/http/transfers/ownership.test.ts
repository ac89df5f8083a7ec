import t, { type Test } from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aPlan } from '../../fixtures/plans';
import { DEFAULT_NOW, errorReply as error, startTestServer, type Reply, type TestServer } from '../../fixtures/server';
import { decision, patchAward, signContract, tenderInQualification } from '../../fixtures/awards';
import { activeFramework, activeSubmission, aTenderer, decideQualification } from '../../fixtures/frameworks';
import {
  aContract,
  aTender,
  belowThresholdConfig,
  placeBid,
  runChronograph,
  tenderInTendering,
  TENDERING_END,
  type Created,
} from '../../fixtures/tenders';
import { playAuction } from '../../../scripts/auction/play-auction';

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

t.test('a tender moved while tendering, with bids: the new owner awards and signs; bidders keep their bid tokens', async (t) => {
  server.clock.set(DEFAULT_NOW);
  const tender = await tenderInTendering(server);
  const bids = [await placeBid(server, tender, 450, 1, 'broker1'), await placeBid(server, tender, 440, 2, 'broker2')];
  const transfer = await newTransfer();
  const feedBefore = (await server.request('GET', '/api/2.5/tenders?descending=1&limit=1')).body;
  server.clock.set(new Date(server.clock.now().getTime() + 60_000));
  t.equal((await takeOver('tenders', tender.id, { id: transfer.id, transfer: tender.transfer })).status, 200);
  const moved = { id: tender.id, token: transfer.token };
  // An ordinary commit: the tender is the feed's newest entry, past the page read before, at its new dateModified.
  const after = (await server.request('GET', `/api/2.5/tenders?offset=${feedBefore.next_page.offset}`)).body.data;
  t.match(after, [{ id: tender.id, dateModified: '2026-10-12T01:01:00+03:00' }]);

  // A bidder still changes its own bid with its own token.
  const bidPatch = await server.request('PATCH', `/api/2.5/tenders/${tender.id}/bids/${bids[0].id}`, {
    key: 'broker1',
    token: bids[0].token,
    body: { data: { lotValues: [{ value: { amount: 445 }, relatedLot: tender.data.lots[0].id }] } },
  });
  t.equal(bidPatch.status, 200, bidPatch.text);

  server.clock.set(new Date(TENDERING_END.getTime() + 60_000));
  await runChronograph(server, tender.id);
  await playAuction(
    { request: (method, path, body) => server.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const award = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.awards[0];
  t.match(await patchAward(server, tender, award.id, decision('active', true, false)), error(403, 'url', 'permission', 'Forbidden'));
  t.equal((await patchAward(server, moved, award.id, decision('active', true, false), 'broker3')).status, 200);
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  t.equal((await server.request('GET', `/api/2.5/contracts/${contract.id}`)).body.data.owner, 'broker3');
  const winner = bids.find((b) => b.id === award.bid_id)!;
  const signed = await signContract(server, moved, contract.id, winner, winner === bids[0] ? 'broker1' : 'broker2', {}, 'broker3');
  t.equal(signed.status, 200, signed.text);
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.status, 'complete');
});

t.test('a contract made before its tender moved: moved with the transfer token the tender had, then signed by the new owner', async (t) => {
  server.clock.set(DEFAULT_NOW);
  const { tender, bids, data } = await tenderInQualification(server);
  t.equal((await patchAward(server, tender, data.awards[0].id, decision('active', true, false))).status, 200);
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  t.match(
    await takeOver('contracts', contract.id, { id: (await newTransfer('level2')).id, transfer: tender.transfer }, 'level2'),
    error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit ownership change'),
  );
  const transfer = await newTransfer();
  t.same((await takeOver('contracts', contract.id, { id: transfer.id, transfer: tender.transfer })).body, {
    data: { id: contract.id, owner: 'broker3' },
  });
  const buyer = (key: string, token: string) =>
    server.request('PUT', `/api/2.5/contracts/${contract.id}/buyer/signer_info`, { key, token, body: { data: { name: 'x' } } });
  t.match(await buyer('broker', tender.token), error(403, 'url', 'permission', 'Forbidden'));
  const winner = bids.find((b) => b.id === data.awards[0].bid_id)!;
  const signed = await signContract(server, { id: tender.id, token: transfer.token }, contract.id, winner, 'broker2', {}, 'broker3');
  t.equal(signed.status, 200, signed.text);
  t.match(
    await takeOver('contracts', contract.id, { id: (await newTransfer('brokerx')).id, transfer: transfer.transfer }, 'brokerx'),
    error(403, 'url', 'accreditation', 'Owner Accreditation level does not permit ownership change'),
  );
});

t.test('an agreement moves apart from its framework: the new owner adds a milestone, the framework token no longer does', async (t) => {
  const frameworks = await startTestServer({ now: new Date('2023-01-01T00:00:00+02:00'), env: { AUTH_FILE: authFile } });
  t.teardown(() => frameworks.close());
  const framework = await activeFramework(frameworks);
  frameworks.clock.set(new Date('2023-01-16T00:00:00+02:00'));
  const submission = await activeSubmission(frameworks, framework.id, { tenderer: aTenderer('00137256') });
  await decideQualification(frameworks, framework, submission.qualificationID, 'active');
  const agreementId = (await frameworks.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data.agreementID;
  const transfer = await newTransfer('broker3', frameworks);
  t.same(
    (await takeOver('agreements', agreementId, { id: transfer.id, transfer: framework.reply.body.access.transfer }, 'broker3', frameworks))
      .body,
    {
      data: { id: agreementId, owner: 'broker3' },
    },
  );
  const contractId = (await frameworks.request('GET', `/api/2.5/agreements/${agreementId}`)).body.data.contracts[0].id;
  const milestones = `/api/2.5/agreements/${agreementId}/contracts/${contractId}/milestones`;
  const ban = { type: 'ban', description: 'moved' };
  t.match(
    await frameworks.request('POST', milestones, { key: 'broker', token: framework.token, body: { data: ban } }),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  const added = await frameworks.request('POST', milestones, { key: 'broker3', token: transfer.token, body: { data: ban } });
  t.equal(added.status, 201, added.text);
  t.equal((await frameworks.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data.owner, 'broker', 'the framework stays');
});

/** The reference's relocation tutorial recordings, beside the repository (absent: these tests skip). */
const RECORDINGS = join(__dirname, '../../../../shared/reference/relocation/http');
const recordings = { skip: existsSync(RECORDINGS) ? false : 'reference recordings not present' };

/** A recorded answer: its status and JSON body. */
function recorded(name: string): { status: number; body: any } {
  const text = readFileSync(join(RECORDINGS, `${name}.http`), 'utf8');
  const answer = text.slice(text.search(/^HTTP\/1\.[01] \d{3}/m));
  return { status: Number(answer.split(' ')[1]), body: JSON.parse(answer.slice(answer.indexOf('\n{'))) };
}

/** The same status, and the same members (data and access) or the same error body. */
function sameShape(t: Test, reply: Reply, name: string) {
  const expected = recorded(name);
  t.equal(reply.status, expected.status, `${name}: status`);
  if (expected.body.errors) return t.same(reply.body, expected.body, `${name}: error`);
  for (const part of ['data', 'access'] as const) {
    if (!expected.body[part]) continue;
    t.same(Object.keys(reply.body[part] ?? {}).sort(), Object.keys(expected.body[part]).sort(), `${name}: ${part} members`);
  }
}

t.test('the relocation tutorial replayed: every answer has the recorded shape', recordings, async (t) => {
  // The tutorial's keys: brokerx created everything and has left; broker1, broker2, broker3 have one level each.
  const keys = join(dir, 'tutorial.ini');
  writeFileSync(
    keys,
    '[brokers]\nbrokerx = brokerx,12345x\nbroker1 = broker1,1\nbroker2 = broker2,2\nbroker3 = broker3,3\n' +
      '[contracting]\ncontracting = contracting\n',
  );
  const tutorial = await startTestServer({ env: { AUTH_FILE: keys } });
  t.teardown(() => tutorial.close());

  const tender = await tutorial.request('POST', '/api/2.5/tenders', {
    key: 'brokerx',
    body: { data: aTender(), config: belowThresholdConfig() },
  });
  const plan = await tutorial.request('POST', '/api/2.5/plans', { key: 'brokerx', body: { data: aPlan() } });
  const contract = await tutorial.request('POST', '/api/2.5/contracts', {
    key: 'contracting',
    body: { data: aContract(tender.body.data.id) },
  });
  const objects = {
    tender: {
      path: `/api/2.5/tenders/${tender.body.data.id}`,
      access: tender.body.access,
      taker: 'broker1',
      modify: { description: 'moved' },
    },
    plan: {
      path: `/api/2.5/plans/${plan.body.data.id}`,
      access: plan.body.access,
      taker: 'broker1',
      modify: { budget: plan.body.data.budget },
    },
    contract: { path: `/api/2.5/contracts/${contract.body.data.id}`, access: contract.body.access, taker: 'broker3', modify: null },
  };
  for (const [kind, object] of Object.entries(objects)) {
    const created = await tutorial.request('POST', '/api/2.5/transfers', { key: object.taker, body: { data: {} } });
    sameShape(t, created, `create-${kind}-transfer`);
    const transferPath = `/api/2.5/transfers/${created.body.data.id}`;
    // Only the tender's and plan's unused transfers are recorded; every transfer has that shape.
    sameShape(
      t,
      await tutorial.request('GET', transferPath, { key: object.taker }),
      kind === 'contract' ? 'get-tender-transfer' : `get-${kind}-transfer`,
    );
    const other = await tutorial.request('POST', '/api/2.5/transfers', { key: 'broker2', body: { data: {} } });
    const body = (id: string) => ({ data: { id, transfer: object.access.transfer } });
    sameShape(
      t,
      await tutorial.request('POST', `${object.path}/ownership`, { key: 'broker2', body: body(other.body.data.id) }),
      `change-${kind}-ownership-forbidden`,
    );
    const moved = await tutorial.request('POST', `${object.path}/ownership`, { key: object.taker, body: body(created.body.data.id) });
    sameShape(t, moved, `change-${kind}-ownership`);
    t.equal(moved.body.data.owner, object.taker);
    const used = await tutorial.request('GET', transferPath, { key: object.taker });
    sameShape(t, used, `get-used-${kind}-transfer`);
    t.equal(used.body.data.usedFor, object.path.slice('/api/2.5'.length));
    if (object.modify) {
      const changed = await tutorial.request('PATCH', object.path, {
        key: object.taker,
        token: created.body.access.token,
        body: { data: object.modify },
      });
      t.match(changed, { status: recorded(`modify-${kind}`).status, body: { data: { owner: object.taker } } }, `modify-${kind}`);
    }
    const back = await tutorial.request('POST', '/api/2.5/transfers', { key: 'brokerx', body: { data: {} } });
    sameShape(
      t,
      await tutorial.request('POST', `${object.path}/ownership`, {
        key: 'brokerx',
        body: { data: { id: back.body.data.id, transfer: created.body.access.transfer } },
      }),
      `change-${kind}-ownership-forbidden-owner`,
    );
  }
});

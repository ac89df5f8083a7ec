import t, { type Test } from 'tap';
import { playAuction } from '../../../scripts/auction/play-auction';
import { decision, patchAward, tenderInQualification } from '../../fixtures/awards';
import { uploadDocument } from '../../fixtures/frameworks';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { CO_TENDERING_END, placeBid, runChronograph, tenderInTendering, TENDERING_END } from '../../fixtures/tenders';

/**
 * New versions (PUT) and metadata (PATCH) of bid, award and cancellation documents, each under its holder's own
 * authority and status rules (docs/tenders.md §Bids, §Awards, §Cancellations); after `update-cancellation-doc.http`.
 */
let server: TestServer;
t.beforeEach(async () => {
  server = await startTestServer();
});
t.afterEach(() => server.close());

const HIDDEN = 'Приховано';
const MINUTE = 60_000;
const later = () => server.clock.set(new Date(server.clock.now().getTime() + MINUTE));
const file = (filename: string, content: string) => ({ filename, content, type: 'application/pdf' });

/** Sends the request and checks it is refused as `expected`, the tender as it was. */
async function refused(t: Test, tenderId: string, send: () => Promise<any>, expected: unknown, what = 'refused') {
  const before = (await server.store.session().get('tenders', tenderId))!.doc;
  const res = await send();
  t.match({ status: res.status, body: res.body }, expected, what);
  t.same((await server.store.session().get('tenders', tenderId))!.doc, before, `${what}: the tender is unchanged`);
}

/** The PUT, PATCH, `?all` list and single read of a holder's document, as its writer `key`/`token` and a reader. */
function versions(holder: string, documentId: string, key: string, token: string) {
  const path = `${holder}/documents/${documentId}`;
  return {
    put: (filename = 'v2.pdf', content = 'second') =>
      uploadDocument(server, path, { key, token, ...file(filename, content), method: 'PUT' }),
    patch: (data: unknown, as: { key?: string; token?: string } = { key, token }) =>
      server.request('PATCH', path, { ...as, body: { data } }),
    json: () => server.request('PUT', path, { key, token, body: { data: { title: 'x', url: 'http://ds/x' } } }),
    list: (all: boolean, as: { key?: string; token?: string } = { key, token }) =>
      server.request('GET', `${holder}/documents${all ? '?all=1' : ''}`, as),
    one: (as: { key?: string; token?: string } = { key, token }) => server.request('GET', path, as),
  };
}

/** A version of a document, its metadata changed, both read back: the same contract for every holder. */
async function versionsWork(t: Test, holder: string, key: string, token: string) {
  const first = (await uploadDocument(server, `${holder}/documents`, { key, token, ...file('v1.pdf', 'first') })).body.data;
  later();
  const doc = versions(holder, first.id, key, token);
  const put = await doc.put();
  t.equal(put.status, 200, put.text);
  t.match(put.body.data, { id: first.id, title: 'v2.pdf', format: 'application/pdf' });
  t.not(put.body.data.url, first.url);
  later();
  const patched = await doc.patch({ id: first.id, description: 'Changed description', documentType: 'notice' });
  t.equal(patched.status, 200, patched.text);
  t.match(patched.body.data, { title: 'v2.pdf', description: 'Changed description', documentType: 'notice' });
  t.not(patched.body.data.dateModified, put.body.data.dateModified);
  t.same((await doc.list(false)).body.data, [patched.body.data], 'the list: the latest version');
  t.same((await doc.list(true)).body.data, [first, patched.body.data], '?all: every version');
  t.same((await doc.one()).body.data, { ...patched.body.data, previousVersions: [first] });
  const download = (d: any) => server.request('GET', `${new URL(d.url).pathname}${new URL(d.url).search}`, { key, token });
  t.equal((await download(first)).text, 'first', 'the first version still downloads');
  t.equal((await download(put.body.data)).text, 'second');
  return { doc, first };
}

/** The refusals every holder shares: unknown document, JSON on PUT, an unknown member on PATCH. */
async function commonRefusals(t: Test, tenderId: string, holder: string, key: string, token: string, documentId: string) {
  const unknown = versions(holder, 'f'.repeat(32), key, token);
  await refused(t, tenderId, () => unknown.put(), errorReply(404, 'url', 'document_id', 'Not Found'), 'PUT of an unknown document');
  await refused(t, tenderId, () => unknown.patch({ description: 'x' }), errorReply(404, 'url', 'document_id', 'Not Found'));
  const doc = versions(holder, documentId, key, token);
  await refused(t, tenderId, () => doc.json(), errorReply(403, 'body', 'url', 'Can add document only from document service.'), 'JSON PUT');
  await refused(
    t,
    tenderId,
    () => doc.patch({ hash: 'md5:' + '0'.repeat(32) }),
    errorReply(422, 'body', 'hash', 'Rogue field'),
    'PATCH of hash',
  );
  await refused(t, tenderId, () => doc.patch({ id: 'f'.repeat(32) }), { status: 422 }, 'PATCH with another id');
}

t.test('bid documents: the bid owner adds versions and metadata while tendering; the tender dateModified stays', async (t) => {
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  const holder = `/api/2.5/tenders/${tender.id}/bids/${bid.id}`;
  const before = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.dateModified;
  const { first } = await versionsWork(t, holder, 'broker1', bid.token);
  const proposal = await versions(holder, first.id, 'broker1', bid.token).patch({ documentType: 'proposal' });
  t.match(proposal, { status: 200, body: { data: { documentType: 'proposal' } } }, "a bid's document is its proposal");
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.dateModified, before, 'bids are private');
  await commonRefusals(t, tender.id, holder, 'broker1', bid.token, first.id);
  const asOther = versions(holder, first.id, 'broker2', '');
  await refused(t, tender.id, () => asOther.put(), errorReply(403, 'url', 'permission', 'Forbidden'), 'another broker');
  const asTenderOwner = versions(holder, first.id, 'broker', tender.token);
  await refused(
    t,
    tender.id,
    () => asTenderOwner.patch({ description: 'x' }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
    'the tender owner',
  );
  server.clock.set(new Date(TENDERING_END.getTime() + MINUTE));
  const late = 'Document can be updated only during the tendering period: from (2026-10-12T00:00:00+03:00) to (2026-10-19T00:00:00+03:00).';
  const doc = versions(holder, first.id, 'broker1', bid.token);
  await refused(t, tender.id, () => doc.put(), errorReply(403, 'body', 'data', late), 'after tendering');
  await refused(t, tender.id, () => doc.patch({ description: 'x' }), errorReply(403, 'body', 'data', late));
});

t.test('bid documents: refused in the auction and, in qualification, to a bid without an active award; the winner updates', async (t) => {
  const tender = await tenderInTendering(server, { lots: 1 });
  const bids = [await placeBid(server, tender, 450, 1, 'broker1'), await placeBid(server, tender, 440, 2, 'broker2')];
  const docs = bids.map((b) => `/api/2.5/tenders/${tender.id}/bids/${b.id}`);
  const upload = async (i: number) =>
    (await uploadDocument(server, `${docs[i]}/documents`, { key: `broker${i + 1}`, token: bids[i].token })).body.data.id;
  const [loserDoc, winnerDoc] = [await upload(0), await upload(1)];
  server.clock.set(new Date(TENDERING_END.getTime() + MINUTE));
  await runChronograph(server, tender.id);
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.status, 'active.auction');
  const winner = versions(docs[1], winnerDoc, 'broker2', bids[1].token);
  await refused(
    t,
    tender.id,
    () => winner.put(),
    errorReply(403, 'body', 'data', "Can't update document in current (active.auction) tender status"),
  );
  await playAuction(
    { request: (method, path, body) => server.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const awards = (await server.request('GET', `/api/2.5/tenders/${tender.id}/awards`)).body.data;
  t.equal(awards[0].bid_id, bids[1].id, 'the lower bid is awarded first');
  const notAwarded = "Can't update document because award of bid is not in one of statuses ('active',)";
  await refused(t, tender.id, () => winner.patch({ description: 'x' }), errorReply(403, 'body', 'data', notAwarded), 'a pending award');
  await patchAward(server, tender, awards[0].id, decision('active', true, false));
  const put = await winner.put('winner-v2.pdf');
  t.equal(put.status, 200, put.text);
  t.equal((await winner.patch({ description: 'Оновлено' })).status, 200);
  const loser = versions(docs[0], loserDoc, 'broker1', bids[0].token);
  await refused(t, tender.id, () => loser.put(), errorReply(403, 'body', 'data', notAwarded), 'the bid without an award');
});

t.test('award documents: the tender owner adds versions and metadata in qualification; refused elsewhere', async (t) => {
  const { tender, data } = await tenderInQualification(server, { lots: 2 });
  const [award, other] = data.awards;
  const holder = `/api/2.5/tenders/${tender.id}/awards/${award.id}`;
  const { first } = await versionsWork(t, holder, 'broker', tender.token);
  await commonRefusals(t, tender.id, holder, 'broker', tender.token, first.id);
  const doc = versions(holder, first.id, 'broker', tender.token);
  await refused(
    t,
    tender.id,
    () => versions(holder, first.id, 'broker1', '').put(),
    errorReply(403, 'url', 'permission', 'Forbidden'),
    'a bidder',
  );
  // The award's lot cancelled: its documents are refused.
  const cancellations = `/api/2.5/tenders/${tender.id}/cancellations`;
  const owner = { key: 'broker', token: tender.token };
  const cancellation = await server.request('POST', cancellations, {
    ...owner,
    body: { data: { reason: 'Причина', reasonType: 'noDemand', relatedLot: award.lotID } },
  });
  await uploadDocument(server, `${cancellations}/${cancellation.body.data.id}/documents`, owner);
  t.equal(
    (await server.request('PATCH', `${cancellations}/${cancellation.body.data.id}`, { ...owner, body: { data: { status: 'active' } } }))
      .status,
    200,
  );
  await refused(
    t,
    tender.id,
    () => doc.put(),
    errorReply(403, 'body', 'data', 'Can update document only in active lot status'),
    'a cancelled lot',
  );
  await refused(
    t,
    tender.id,
    () => doc.patch({ description: 'x' }),
    errorReply(403, 'body', 'data', 'Can update document only in active lot status'),
  );
  // The other lot's award decided: the tender is awarded and no award document changes.
  const otherHolder = `/api/2.5/tenders/${tender.id}/awards/${other.id}`;
  const otherDoc = (await uploadDocument(server, `${otherHolder}/documents`, owner)).body.data;
  await patchAward(server, tender, other.id, decision('active', true, false));
  const { status } = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.equal(status, 'active.awarded');
  const awarded = versions(otherHolder, otherDoc.id, 'broker', tender.token);
  await refused(
    t,
    tender.id,
    () => awarded.put(),
    errorReply(403, 'body', 'data', "Can't update document in current (active.awarded) tender status"),
  );
  await refused(
    t,
    tender.id,
    () => awarded.patch({ description: 'x' }),
    errorReply(403, 'body', 'data', "Can't update document in current (active.awarded) tender status"),
  );
});

t.test('cancellation documents: the tender owner adds versions and metadata while the tender may be cancelled', async (t) => {
  const tender = await tenderInTendering(server);
  const owner = { key: 'broker', token: tender.token };
  const cancellations = `/api/2.5/tenders/${tender.id}/cancellations`;
  const cancellation = (
    await server.request('POST', cancellations, { ...owner, body: { data: { reason: 'Причина', reasonType: 'noDemand' } } })
  ).body.data;
  const holder = `${cancellations}/${cancellation.id}`;
  const { first } = await versionsWork(t, holder, 'broker', tender.token);
  await commonRefusals(t, tender.id, holder, 'broker', tender.token, first.id);
  await refused(
    t,
    tender.id,
    () => versions(holder, first.id, 'broker1', '').put(),
    errorReply(403, 'url', 'permission', 'Forbidden'),
    'a bidder',
  );
  t.equal((await server.request('PATCH', holder, { ...owner, body: { data: { status: 'active' } } })).status, 200);
  const doc = versions(holder, first.id, 'broker', tender.token);
  const text = "Can't perform cancellation in current (cancelled) tender status";
  await refused(t, tender.id, () => doc.put(), errorReply(403, 'body', 'data', text), 'a cancelled tender');
  await refused(t, tender.id, () => doc.patch({ description: 'x' }), errorReply(403, 'body', 'data', text));
});

t.test('a restricted tender: bid and award documents hidden in every version for readers without access', async (t) => {
  const tender = await tenderInTendering(server, { procedure: 'competitiveOrdering', config: { restricted: true } });
  const bids = [await placeBid(server, tender, 450, 1, 'broker1'), await placeBid(server, tender, 440, 2, 'broker2')];
  const bidHolder = `/api/2.5/tenders/${tender.id}/bids/${bids[0].id}`;
  const bidDoc = (
    await uploadDocument(server, `${bidHolder}/documents`, { key: 'broker1', token: bids[0].token, ...file('пропозиція.pdf', 'v1') })
  ).body.data;
  t.equal((await versions(bidHolder, bidDoc.id, 'broker1', bids[0].token).put('пропозиція-2.pdf')).status, 200);
  server.clock.set(new Date(CO_TENDERING_END.getTime() + MINUTE));
  await runChronograph(server, tender.id);
  await playAuction(
    { request: (method, path, body) => server.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const award = (await server.request('GET', `/api/2.5/tenders/${tender.id}/awards`)).body.data[0];
  const awardHolder = `/api/2.5/tenders/${tender.id}/awards/${award.id}`;
  const awardDoc = (
    await uploadDocument(server, `${awardHolder}/documents`, { key: 'broker', token: tender.token, ...file('висновок.pdf', 'v1') })
  ).body.data;
  t.equal((await versions(awardHolder, awardDoc.id, 'broker', tender.token).put('висновок-2.pdf')).status, 200);
  for (const [reader, key] of [
    ['anonymous', undefined],
    ['another broker', 'broker3'],
  ] as const) {
    for (const [holder, id, members] of [
      [bidHolder, bidDoc.id, ['title', 'url']],
      [awardHolder, awardDoc.id, ['title', 'url']],
    ] as const) {
      const doc = versions(holder, id, '', '');
      const all = (await doc.list(true, { key })).body.data;
      const one = (await doc.one({ key })).body.data;
      t.equal(all.length, 2, `${reader}: both versions listed`);
      for (const version of [...all, one, ...one.previousVersions]) {
        for (const member of members) t.equal(version[member], HIDDEN, `${reader}: ${holder.split('/').at(-2)} ${member}`);
      }
    }
  }
  const owned = (await versions(bidHolder, bidDoc.id, 'broker1', bids[0].token).one()).body.data;
  t.equal(owned.title, 'пропозиція-2.pdf', 'the bid owner sees the latest title');
  t.equal(owned.previousVersions[0].title, 'пропозиція.pdf', 'and the earlier one');
});

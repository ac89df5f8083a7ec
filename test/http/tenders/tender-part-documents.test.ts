import t, { type Test } from 'tap';
import { uploadDocument } from '../../fixtures/frameworks';
import { tenderInQualification } from '../../fixtures/awards';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { placeBid, runChronograph, TENDERING_END, tenderInTendering } from '../../fixtures/tenders';
import { playAuction } from '../../../scripts/auction/play-auction';

/** docs/platform.md §Document fields: the documents of a tender's bids, awards and cancellations. */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const patch = (path: string, as: { key: string; token: string }, data: Record<string, unknown>) =>
  server.request('PATCH', path, { ...as, body: { data } });

/** The reference's `validate_relatedItem` on a document of `holder` (`…/documents` of a bid, award, cancellation). */
async function relatedItemChecked(t: Test, holder: string, as: { key: string; token: string }, tender: any) {
  const uploaded = await uploadDocument(server, `${holder}/documents`, as);
  t.equal(uploaded.status, 201, uploaded.text);
  const doc = `${holder}/documents/${uploaded.body.data.id}`;
  const [lot, item] = [tender.lots[0].id, tender.items[0].id];
  t.match(await patch(doc, as, { documentOf: 'lot' }), error(422, 'body', 'relatedItem', ['This field is required.']), holder);
  t.match(
    await patch(doc, as, { documentOf: 'lot', relatedItem: item }),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of lots']),
  );
  t.match(
    await patch(doc, as, { documentOf: 'item', relatedItem: lot }),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of items']),
  );
  const ok = await patch(doc, as, { documentOf: 'lot', relatedItem: lot });
  t.equal(ok.status, 200, ok.text);
  t.match(ok.body.data, { documentOf: 'lot', relatedItem: lot });
  t.equal((await patch(doc, as, { documentOf: 'item', relatedItem: item })).status, 200);
}

t.test("a bid's document: relatedItem names one of the tender's lots or items", async (t) => {
  const tender = await tenderInTendering(server, { lots: 1 });
  const bid = await placeBid(server, tender);
  await relatedItemChecked(t, `/api/2.5/tenders/${tender.id}/bids/${bid.id}`, { key: 'broker1', token: bid.token }, tender.data);
});

t.test(
  "an award's and a cancellation's document: relatedItem checked against the tender; an award document's author is tender_owner",
  async (t) => {
    server.clock.set(DEFAULT_NOW);
    const { tender, data } = await tenderInQualification(server, { lots: 1 });
    const owner = { key: 'broker', token: tender.token };
    const award = `/api/2.5/tenders/${tender.id}/awards/${data.awards[0].id}`;
    const uploaded = await uploadDocument(server, `${award}/documents`, owner);
    t.match(uploaded.body.data, { author: 'tender_owner', documentOf: 'tender', confidentiality: 'public' });
    const put = await uploadDocument(server, `${award}/documents/${uploaded.body.data.id}`, { ...owner, method: 'PUT' });
    t.equal(put.body.data.author, 'tender_owner', 'a new version keeps it');
    await relatedItemChecked(t, award, owner, data);
    const cancellation = await server.request('POST', `/api/2.5/tenders/${tender.id}/cancellations`, {
      ...owner,
      body: { data: { reason: 'Причина', reasonType: 'noDemand' } },
    });
    const cancellationPath = `/api/2.5/tenders/${tender.id}/cancellations/${cancellation.body.data.id}`;
    const cancellationDoc = await uploadDocument(server, `${cancellationPath}/documents`, owner);
    t.notOk(cancellationDoc.body.data.author, 'a cancellation document records no author');
    await relatedItemChecked(t, cancellationPath, owner, data);
  },
);

const RATIONALE = 'Комерційна таємниця учасника, не для всіх';

t.test("a bid's document may be buyerOnly: only the bid's and the tender's owners, with their tokens, open it", async (t) => {
  server.clock.set(DEFAULT_NOW);
  const tender = await tenderInTendering(server, { lots: 1 });
  const bids = [await placeBid(server, tender, 450, 1, 'broker1'), await placeBid(server, tender, 440, 2, 'broker2')];
  const [bid] = bids;
  const base = `/api/2.5/tenders/${tender.id}/bids/${bid.id}/documents`;
  const bidder = { key: 'broker1', token: bid.token };
  const uploaded = await uploadDocument(server, base, { ...bidder, content: 'таємниця' });
  const doc = `${base}/${uploaded.body.data.id}`;
  t.match(
    await patch(doc, bidder, { confidentiality: 'buyerOnly' }),
    error(422, 'body', 'confidentialityRationale', ['confidentialityRationale is required']),
  );
  t.match(
    await patch(doc, bidder, { confidentiality: 'buyerOnly', confidentialityRationale: 'коротко' }),
    error(422, 'body', 'confidentialityRationale', ['confidentialityRationale should contain at least 30 characters']),
  );
  const hidden = await patch(doc, bidder, { confidentiality: 'buyerOnly', confidentialityRationale: RATIONALE });
  t.equal(hidden.status, 200, hidden.text);
  t.match(hidden.body.data, { confidentiality: 'buyerOnly', confidentialityRationale: RATIONALE });
  server.clock.set(new Date(TENDERING_END.getTime() + 60_000));
  await runChronograph(server, tender.id);
  await playAuction(
    { request: (method, path, body) => server.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const download = new URL(uploaded.body.data.url);
  const readers: [string, { key?: string; token?: string }, boolean][] = [
    ['anonymous', {}, false],
    ['another broker', { key: 'broker3' }, false],
    ["the tender owner's broker without the token", { key: 'broker' }, false],
    ['the bid owner', bidder, true],
    ['the tender owner', { key: 'broker', token: tender.token }, true],
  ];
  for (const [reader, as, opens] of readers) {
    const list = (await server.request('GET', base, as)).body.data[0];
    const one = (await server.request('GET', doc, as)).body.data;
    t.equal(list.url !== undefined, opens, `${reader}: url in the list`);
    t.equal(one.url !== undefined, opens, `${reader}: url in the document`);
    t.equal(one.confidentialityRationale, RATIONALE, `${reader}: the reason is shown`);
    const file = await server.request('GET', `${download.pathname}${download.search}`, as);
    if (opens) t.equal(file.text, 'таємниця', `${reader}: downloads it`);
    else t.match(file, error(403, 'body', 'data', 'Document download forbidden.'), `${reader}: download refused`);
  }
  const { data } = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body;
  const award = data.awards.find((a: any) => a.status === 'pending');
  t.equal(award.bid_id, bids[1].id, 'the lower bid is awarded first');
  const awarded = await server.request('PATCH', `/api/2.5/tenders/${tender.id}/awards/${award.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active', qualified: true } },
  });
  t.equal(awarded.status, 200, awarded.text);
  const winner = { key: 'broker2', token: bids[1].token };
  const winnerBase = `/api/2.5/tenders/${tender.id}/bids/${bids[1].id}/documents`;
  const winnerDoc = `${winnerBase}/${(await uploadDocument(server, winnerBase, winner)).body.data.id}`;
  t.match(
    await patch(winnerDoc, winner, { confidentiality: 'buyerOnly', confidentialityRationale: RATIONALE }),
    error(403, 'body', 'data', "Can't update document confidentiality in current (active.awarded) tender status"),
  );
  t.equal(
    (await patch(winnerDoc, winner, { title: 'договір.pdf', confidentiality: 'public' })).status,
    200,
    'an unchanged confidentiality is fine',
  );
});

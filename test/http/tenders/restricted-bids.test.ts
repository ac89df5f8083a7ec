import t from 'tap';
import { playAuction } from '../../../scripts/auction/play-auction';
import { uploadDocument } from '../../fixtures/frameworks';
import { startTestServer, type TestServer } from '../../fixtures/server';
import {
  aBid,
  aCompetitiveOrderingTender,
  aLot,
  anItem,
  CO_TENDERING_END,
  competitiveOrderingConfig,
  createTender,
  insertAgreement,
  runChronograph,
} from '../../fixtures/tenders';

const HIDDEN = 'Приховано';
const LOT = 'd'.repeat(32);

/**
 * A restricted competitiveOrdering tender played through real requests: two bids with subcontracting details and a
 * document, the end of tendering, the auction module (participation urls), then read by every kind of reader.
 */
let server: TestServer;
let tenderId: string;
let bidId: string;
let bidToken: string;
let docId: string;
t.before(async () => {
  server = await startTestServer();
  const agreement = await insertAgreement(server, { restricted: true });
  const tender = await createTender(
    server,
    aCompetitiveOrderingTender(agreement, { lots: [aLot({ id: LOT })], items: [anItem({ relatedLot: LOT })] }),
    competitiveOrderingConfig({ restricted: true }),
  );
  tenderId = tender.id;
  const activated = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.tendering' } },
  });
  const withLots = { data: activated.body.data };
  for (const [i, key] of [
    [1, 'broker1'],
    [2, 'broker2'],
  ] as const) {
    const data = aBid(withLots, 400 + i, i, {
      status: 'pending',
      subcontractingDetails: 'субпідрядник',
      lotValues: [{ value: { amount: 400 + i }, relatedLot: LOT, subcontractingDetails: 'субпідрядник лоту' }],
    });
    const res = await server.request('POST', `/api/2.5/tenders/${tender.id}/bids`, { key, body: { data } });
    if (res.status !== 201) throw new Error(res.text);
    if (i === 1) [bidId, bidToken] = [res.body.data.id, res.body.access.token];
  }
  docId = (
    await uploadDocument(server, `/api/2.5/tenders/${tender.id}/bids/${bidId}/documents`, {
      key: 'broker1',
      token: bidToken,
      filename: 'пропозиція.pdf',
    })
  ).body.data.id;
  server.clock.set(new Date(CO_TENDERING_END.getTime() + 60_000));
  await runChronograph(server, tender.id);
  await playAuction(
    { request: (method, path, body) => server.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
});
t.teardown(() => server.close());

const bidPath = () => `/api/2.5/tenders/${tenderId}/bids/${bidId}`;

/** Every place a bid shows, as this reader gets it. */
async function bidViews(key?: string, token?: string) {
  const get = async (path: string) => (await server.request('GET', path, { key, token })).body;
  const feed = await get('/api/2.5/tenders?opt_fields=bids');
  return {
    tender: (await get(`/api/2.5/tenders/${tenderId}`)).data.bids[0],
    feed: feed.data.find((e: any) => e.id === tenderId).bids[0],
    list: (await get(`/api/2.5/tenders/${tenderId}/bids`)).data[0],
    one: (await get(bidPath())).data,
    documents: (await get(`${bidPath()}/documents`)).data[0],
    document: (await get(`${bidPath()}/documents/${docId}`)).data,
  };
}

for (const [reader, key] of [
  ['anonymous', undefined],
  ['another broker', 'broker3'],
] as const) {
  t.test(`${reader}: bids' tenderers, participationUrl, subcontractingDetails and bid documents hidden everywhere`, async (t) => {
    const views = await bidViews(key);
    for (const [where, bid] of Object.entries(views).filter(([w]) => !w.startsWith('document'))) {
      t.match(
        bid.tenderers[0],
        {
          name: HIDDEN,
          identifier: { id: HIDDEN, legalName: HIDDEN },
          address: { streetAddress: HIDDEN },
          contactPoint: { email: HIDDEN },
          scale: HIDDEN,
        },
        where,
      );
      t.equal(bid.subcontractingDetails, HIDDEN, where);
      t.match(bid.lotValues[0], { participationUrl: HIDDEN, subcontractingDetails: HIDDEN }, where);
      t.equal(bid.documents[0].title, HIDDEN, where);
      t.equal(bid.documents[0].url, HIDDEN, where);
      t.equal(bid.lotValues[0].value.amount, 401, `${where}: values stay visible`);
    }
    t.match(views.documents, { title: HIDDEN, url: HIDDEN, hash: /^md5:/ });
    t.match(views.document, { title: HIDDEN, url: HIDDEN });
  });
}

for (const [reader, key, token] of [
  ['the bid owner', 'broker1', 'bid'],
  ['the tender owner', 'broker', undefined],
  ['an r broker', 'brokerr', undefined],
] as const) {
  t.test(`${reader} sees the bid whole`, async (t) => {
    const one = (await server.request('GET', bidPath(), { key, token: token ? bidToken : undefined })).body.data;
    t.equal(one.tenderers[0].name, 'Постачальник 1');
    t.equal(one.subcontractingDetails, 'субпідрядник');
    t.match(one.lotValues[0].participationUrl, /^https:\/\/auction\.example\.org\//);
    t.equal(one.documents[0].title, 'пропозиція.pdf');
  });
}

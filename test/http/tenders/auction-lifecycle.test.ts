import t from 'tap';
import { playAuction, type AuctionModule } from '../../../scripts/auction/play-auction';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { LIFECYCLE_CASES as cases, tenderAfterTendering } from '../../fixtures/tenders';

/** The auction module driven in-process against the test server, with the auction group's key. */
const auctionModule = (server: TestServer): AuctionModule => ({
  request: async (method, path, body) => server.request(method, path, { key: 'auction', body }),
  auctionBase: 'https://auction.example.org',
});

for (const [name, options] of cases) {
  t.test(`${name}: tendering → 2 bids → end of tendering → auction module → pending award for the lowest bid`, async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    const { tender, bids } = await tenderAfterTendering(server, options);
    const auctioned = await server.request('GET', `/api/2.5/tenders/${tender.id}`);
    t.equal(auctioned.body.data.status, 'active.auction');
    t.notOk(auctioned.body.data.bids, 'bids stay private during the auction');

    t.equal(await playAuction(auctionModule(server), tender.id), true);
    t.equal(await playAuction(auctionModule(server), tender.id), false, 'a second run finds nothing to play');

    const { data } = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body;
    t.equal(data.status, 'active.qualification');
    const lots: any[] = data.lots ?? [undefined];
    t.equal(data.awards.length, lots.length, 'one award per lot (or for the tender)');
    for (const [i, lot] of lots.entries()) {
      t.match(data.awards[i], { status: 'pending', bid_id: bids[1].id, value: { amount: 440 }, suppliers: [{ name: 'Постачальник 2' }] });
      if (lot) t.equal(data.awards[i].lotID, lot.id);
      const period = lot ? lot.auctionPeriod : data.auctionPeriod;
      t.ok(period.endDate, 'the auction period is over');
      t.equal(lot ? lot.auctionUrl : data.auctionUrl, `https://auction.example.org/tenders/${tender.id}${lot ? `_${lot.id}` : ''}`);
    }
    t.equal(data.bids.length, 2, 'bids are public after the auction');
    const own = await server.request('GET', `/api/2.5/tenders/${tender.id}/bids/${bids[0].id}`, { key: 'broker1', token: bids[0].token });
    const url = own.body.data.lotValues ? own.body.data.lotValues[0].participationUrl : own.body.data.participationUrl;
    t.match(url, /\?key_for_bid=[0-9a-f]{32}$/);
  });
}

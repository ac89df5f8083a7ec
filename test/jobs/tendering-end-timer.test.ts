import t from 'tap';
import { startTestServer } from '../fixtures/server';
import { placeBid, tenderInTendering, TENDERING_END } from '../fixtures/tenders';

/**
 * The end of tendering is one more event of the tender's check: the in-process timer (and so the Bull worker, which
 * calls the same check) runs it at tenderPeriod.endDate as the chronograph endpoint does.
 */
t.test('the in-process timer at tenderPeriod.endDate → active.auction, bids activated and still sealed', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const tender = await tenderInTendering(server);
  const bids = [await placeBid(server, tender, 450, 1), await placeBid(server, tender, 440, 2, 'broker2')];
  // The node's own timer, as src/node.ts wires it, ticked at the server's clock.
  const { clock } = server;
  const timer = server.jobs.timer!;
  clock.set(new Date(TENDERING_END.getTime() - 1000));
  t.equal(await timer.tick(), 0, 'nothing due before the end');
  clock.set(TENDERING_END);
  t.equal(await timer.tick(), 1);
  const stored = (await server.store.session().get('tenders', tender.id))!.doc as any;
  t.equal(stored.data.status, 'active.auction');
  t.notOk(stored.data.bids, 'bids are not in the data readers see');
  t.same(
    stored.sealedBids.map((b: any) => [b.id, b.status]),
    bids.map((b) => [b.id, 'active']),
  );
  t.notOk(stored.data.next_check, 'nothing timed in the auction');
});

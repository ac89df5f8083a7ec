import t from 'tap';
import { startTestServer } from '../fixtures/server';
import { decision, patchAward, tenderInQualification } from '../fixtures/awards';

/**
 * The end of a failed awarding's stand-still is one more event of the tender's check: the in-process timer (and so
 * the Bull worker, which calls the same check) makes the lot and the tender unsuccessful at that time
 * (docs/tenders.md §Awards).
 */
t.test('the in-process timer at the stand-still end of refused awards → the lot and the tender unsuccessful', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  await patchAward(server, tender, data.awards[0].id, decision('unsuccessful', false, false));
  const next = (await server.request('GET', `/api/2.5/tenders/${tender.id}/awards`)).body.data.at(-1);
  const refused = (await patchAward(server, tender, next.id, decision('unsuccessful', false, false))).body.data;
  const due = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.next_check;
  t.equal(due, refused.complaintPeriod.endDate, 'next_check is the end of the last stand-still');
  // The node's own timer, as src/node.ts wires it, ticked at the server's clock.
  const { clock } = server;
  const timer = server.jobs.timer!;
  clock.set(new Date(Date.parse(due) - 1000));
  t.equal(await timer.tick(), 0, 'nothing due before the stand-still ends');
  clock.set(new Date(Date.parse(due)));
  t.equal(await timer.tick(), 1);
  const stored = (await server.store.session().get('tenders', tender.id))!.doc as any;
  t.equal(stored.data.status, 'unsuccessful');
  t.equal(stored.data.lots[0].status, 'unsuccessful');
  t.notOk(stored.data.next_check, 'nothing left to check');
});

/**
 * What each kind of request asks of the MongoDB store, counted with the driver's command monitoring
 * (docs/performance.md §Round trips on MongoDB): a change that adds a command or a round trip to one of them fails
 * here.
 */
import t from 'tap';
import { countRoundTrips, ROUND_TRIP_TARGETS } from '../../scripts/bench/round-trips';

const url = process.env.MONGODB_URL;

if (!url) {
  t.plan(0, 'MONGODB_URL not set');
} else {
  t.test('round trips and commands per request, at or under their targets', async (t) => {
    const rows = await countRoundTrips(url);
    const counted = Object.fromEntries(
      rows.map((r) => [r.request, `${r.roundTrips} round trips, ${r.commands} commands: ${r.names.join(' ')}`]),
    );
    t.same(counted, {
      'GET object (not kept)': '1 round trips, 1 commands: find',
      'GET object (kept)': '0 round trips, 0 commands: ',
      'feed page (warm)': '2 round trips, 2 commands: find find',
      'POST create': '1 round trips, 1 commands: insert',
      'PATCH owner': '1 round trips, 1 commands: update',
      'POST bid': '1 round trips, 1 commands: update',
      'PATCH chronograph': '0 round trips, 0 commands: ',
    });
    for (const row of rows)
      t.ok(row.roundTrips <= ROUND_TRIP_TARGETS[row.request], `${row.request}: at most ${ROUND_TRIP_TARGETS[row.request]}`);
  });
}

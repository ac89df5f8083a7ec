import t from 'tap';
import { runBidActivity } from '../../scripts/reliability/bid-activity';

// Sized by its counts, not by tap's default: 36 s on MongoDB on a quiet 2-core machine (2026-11-28), and a machine
// loaded to 4 runnable processes a core stretches that past 120 s.
t.setTimeout(480_000);

/**
 * Issue 26: bid activity reaches no reader. Every feed and tender read, as every reader, is byte for byte the same
 * after each kind of bid action while bids are sealed, and a crawler holding its offset finds nothing new
 * (docs/architecture.md §Hidden changes). On the engine the suite runs on (SQLite, or MongoDB with MONGODB_URL).
 */
t.test('no feed or tender read changes because of a bid action; nothing is listed again after a held offset', async (t) => {
  const r = await runBidActivity();
  t.equal(r.actions, 24, 'eight kinds of bid action on three tenders');
  t.equal(r.failed, 0, r.examples.join('\n'));
  t.ok(r.compared >= 8 * 450, `${r.compared} reads compared`);
  t.equal(r.changed, 0, r.examples.join('\n'));
  t.equal(r.listedAgain, 0, r.examples.join('\n'));
});

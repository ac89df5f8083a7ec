import t from 'tap';
import { BUDGETS, CI_MONGO_STORM } from '../../scripts/reliability/budgets';
import { runClusterStorm } from '../../scripts/reliability/cluster-storm';

t.test(
  'a PATCH storm through 3 node processes, one killed with kill -9: nothing acknowledged is lost, crawlers miss nothing',
  async (t) => {
    // startTestCluster puts the nodes on MONGODB_URL when it is set.
    const budget = process.env.MONGODB_URL ? CI_MONGO_STORM : BUDGETS.ci.storm;
    const r = await runClusterStorm(budget);
    const { objects, writersPerObject, writesPerWriter } = budget;
    t.equal(r.writers, objects * writersPerObject);
    t.equal(r.acknowledged, r.writers * writesPerWriter, 'every writer got all its writes acknowledged, retrying 409s');
    t.equal(r.lost, 0, 'every last acknowledged value is stored, and each object has one revision per acknowledged write', {
      lostWrites: r.lostWrites,
    });
    t.equal(r.phantom, 0, 'no revision that no write accounts for');
    t.equal(r.serverErrors, 0, 'no 500 from SQLite lock contention or anything else');
    t.equal(r.crawl.missedForward, 0, 'the forward crawler saw every acknowledged change');
    t.equal(r.crawl.missedDescending, 0, 'a descending crawl lists every object at its final state');
    t.equal(r.crawl.dateModifiedBackwards, 0);
    t.comment(
      `${r.acknowledged} writes, ${r.conflicts} conflicts, ${r.uncertain} retried 503s; the feed caught up ${Math.round(r.crawl.caughtUpMs)} ms after the last write`,
    );
    t.equal(r.faultsSurvived, budget.killNode ? 1 : 0, "the killed node's client got 412, retried and read its write");
  },
);

import t from 'tap';
import { BUDGETS } from '../../scripts/reliability/budgets';
import { runCanaries } from '../../scripts/reliability/canaries';

for (const mode of BUDGETS.ci.canaryModes) {
  t.test(`RESTRICTED_MODE=${mode}: no canary reaches a reader who must not see it, every reader who may sees all; no token in any view, feed or log`, async (t) => {
    const r = await runCanaries(mode);
    t.ok(r.canaries >= 400, `${r.canaries} canaries, one per field of every hiding table`);
    t.ok(r.requests >= 700, `${r.requests} reads`);
    t.equal(r.leaked, 0, r.examples.join('\n'));
    t.equal(r.missing, 0, r.examples.join('\n'));
    t.equal(r.tokensLeaked, 0, r.examples.join('\n'));
  });
}

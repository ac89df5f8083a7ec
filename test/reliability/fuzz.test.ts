import t from 'tap';
import { BUDGETS } from '../../scripts/reliability/budgets';
import { runFuzz } from '../../scripts/reliability/fuzz';

// Bounded by count, not time: on the MongoDB suite, beside two other files on CI's 2 cores, it takes close to the
// default 2 minutes.
t.setTimeout(240_000);

t.test('fuzzing every endpoint: never a 5xx, always the error format, refused requests change nothing', async (t) => {
  const r = await runFuzz(BUDGETS.ci.fuzzRunsPerEndpoint);
  t.ok(r.endpoints >= 28, `${r.endpoints} endpoints`);
  t.ok(r.cases >= r.endpoints * BUDGETS.ci.fuzzRunsPerEndpoint, `${r.cases} cases`);
  t.equal(r.serverErrors, 0, r.examples.join('\n'));
  t.equal(r.badFormat, 0, r.examples.join('\n'));
  t.equal(r.stateCorrupted, 0, r.examples.join('\n'));
});

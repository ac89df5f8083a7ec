import t from 'tap';
import { BUDGETS } from '../../scripts/reliability/budgets';
import { runFuzz } from '../../scripts/reliability/fuzz';

// Bounded by count, not time: on the MongoDB suite, beside two other files on CI's 2 cores, it took 245 s in CI
// (2026-11-28); the timeout only catches a hang.
t.setTimeout(600_000);

t.test('fuzzing every endpoint: never a 5xx, always the error format, refused requests change nothing', async (t) => {
  const r = await runFuzz(BUDGETS.ci.fuzzRunsPerEndpoint);
  t.ok(r.endpoints >= 28, `${r.endpoints} endpoints`);
  t.ok(r.cases >= r.endpoints * BUDGETS.ci.fuzzRunsPerEndpoint, `${r.cases} cases`);
  t.equal(r.serverErrors, 0, r.examples.join('\n'));
  t.equal(r.badFormat, 0, r.examples.join('\n'));
  t.equal(r.stateCorrupted, 0, r.examples.join('\n'));
});

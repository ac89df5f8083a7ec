import t from 'tap';
import { BUDGETS } from '../../scripts/reliability/budgets';
import { runMultipartFuzz } from '../../scripts/reliability/multipart-fuzz';

t.test(
  'generated truncated, garbled and oversized multipart bodies on every upload route: 201 or a 4xx in the error format, the node alive',
  async (t) => {
    const r = await runMultipartFuzz(BUDGETS.ci.multipartCasesPerRoute);
    t.equal(r.routes, 10, 'POST and PUT on frameworks, submissions, qualifications, tenders, contracts');
    t.equal(r.cases, r.routes * BUDGETS.ci.multipartCasesPerRoute, `${r.cases} cases, ${r.stored} stored`);
    t.equal(r.bad, 0, r.examples.join('\n'));
    t.equal(r.stateChanged, 0, r.examples.join('\n'));
    t.equal(r.deadAfter, 0, r.examples.join('\n'));
  },
);

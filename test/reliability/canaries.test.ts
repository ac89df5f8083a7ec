import t from 'tap';
import { runCanaries } from '../../scripts/reliability/canaries';

// Sized by its counts, not by tap's default: both modes take 42 s on MongoDB on a quiet 2-core machine (2026-11-28),
// and a machine loaded to 4 runnable processes a core stretches that past 120 s.
t.setTimeout(480_000);

/**
 * Issue 17, class 3: the spec's hiding tables checked mechanically. A canary in every field the spec names for
 * every restricted kind (test/reliability/spec-hiding-tables.ts), read through every path as every reader, in both
 * RESTRICTED_MODEs (docs/masking.md).
 */
for (const mode of ['hidden', 'forbidden'] as const) {
  t.test(
    `RESTRICTED_MODE=${mode}: no canary reaches a reader who must not see it, every reader with full access sees all; no token in any view, feed or log; no 5xx`,
    async (t) => {
      const r = await runCanaries(mode);
      t.ok(r.canaries >= 400, `${r.canaries} canaries, one per field the spec's tables name`);
      t.ok(r.requests >= 1000, `${r.requests} reads`);
      t.equal(r.leaked, 0, r.examples.join('\n'));
      t.equal(r.missing, 0, r.examples.join('\n'));
      t.equal(r.tokensLeaked, 0, r.examples.join('\n'));
      t.equal(r.failed, 0, r.examples.join('\n'));
    },
  );
}

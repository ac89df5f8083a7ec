import t from 'tap';
import { type ObjectDoc } from '../../../src/domain/core/objects';
import { insertOf, updateOf } from '../../../src/domain/save-rules';
import type { Change, Kind, Stored } from '../../../src/store/port';

/**
 * docs/platform.md §Server-managed arrays, docs/frameworks.md §Defense frameworks: the rules run where every change
 * is built, so every route that saves a kind (its lifecycle, sub-resources, checks, the chronograph) obeys them.
 */
const MANAGED: [Kind, string[]][] = [
  ['tenders', ['documents', 'questions', 'complaints', 'bids', 'awards', 'contracts', 'cancellations']],
  ['frameworks', ['documents', 'changes']],
  ['submissions', ['documents']],
  ['qualifications', ['documents']],
  ['contracts', ['documents', 'changes']],
];

const storedOf = (kind: Kind, doc: ObjectDoc): Stored => ({ kind, id: doc.data.id, rev: 1, seq: 1, doc });
const configOf = (change: Change) => (change as unknown as { doc: ObjectDoc }).doc.config!;
const aDoc = (): ObjectDoc => ({ data: { id: 'a'.repeat(32), status: 'active', procuringEntity: { kind: 'general' } }, config: {} });

for (const [kind, arrays] of MANAGED) {
  for (const name of arrays) {
    t.test(`${kind}.${name}: a save not made for it that changes it → 422 Rogue field; the route that owns it may`, async (t) => {
      const before = aDoc();
      const after = { ...before, data: { ...before.data, [name]: [{ id: 'b'.repeat(32) }] } };
      t.throws(() => updateOf(storedOf(kind, before), after), {
        status: 422,
        errors: [{ location: 'body', name, description: 'Rogue field' }],
      });
      t.throws(() => insertOf(kind, after), { status: 422, errors: [{ name }] }, 'nor on insert');
      t.doesNotThrow(() => updateOf(storedOf(kind, before), after, [name]));
      t.doesNotThrow(() => updateOf(storedOf(kind, after), { ...after, data: { ...after.data, title: 'x' } }), 'an unchanged array passes');
    });
  }
}

t.test('frameworks: every save of a defense framework stores restrictedDerivatives true', async (t) => {
  const before = aDoc();
  const after: ObjectDoc = {
    ...before,
    data: { ...before.data, procuringEntity: { kind: 'defense' } },
    config: { restrictedDerivatives: false },
  };
  t.equal(configOf(updateOf(storedOf('frameworks', before), after)).restrictedDerivatives, true);
  t.equal(configOf(insertOf('frameworks', { ...after, config: {} })).restrictedDerivatives, true, 'on insert');
  const general = updateOf(storedOf('frameworks', before), { ...before, config: { restrictedDerivatives: false } });
  t.equal(configOf(general).restrictedDerivatives, false, 'a general one keeps its flag');
});

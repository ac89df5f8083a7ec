import t from 'tap';
import { withItemAttributes } from '../../../../../src/domain/tender/contracts/contract-attributes';
import type { Item } from '../../../../../src/domain/core/shapes';
import type { Bid, Criterion, Tender } from '../../../../../src/domain/tender/tender.types';

const item = (id: string): Item => ({ id, description: id, classification: { scheme: 'ДК021', id: '44617100-9', description: 'Cartons' } });
const KGM = { name: 'кілограми', code: 'KGM' };
const criterion = (relatesTo: string, relatedItem: string, requirements: Criterion['requirementGroups']): Criterion => ({
  relatesTo,
  relatedItem,
  requirementGroups: requirements,
});
const tender = (criteria: Criterion[]) => ({ criteria }) as Tender;
const answering = (...responses: unknown[]): Bid => ({ requirementResponses: responses });

t.test("an item criterion's answered active requirements become the item's attributes, in the criteria's order", async (t) => {
  const t1 = tender([
    criterion('item', 'i1', [
      {
        requirements: [
          { id: 'r1', title: 'Форма', status: 'active' },
          { id: 'r2', title: 'Доза', unit: KGM },
          { id: 'r3', title: 'Скасована', status: 'cancelled' },
        ],
      },
      { requirements: [{ id: 'r4', title: 'Не відповіли' }] },
    ]),
    criterion('tender', 'i1', [{ requirements: [{ id: 'r5', title: 'Мова' }] }]),
  ]);
  const bid = answering(
    { requirement: { id: 'r2' }, value: 5 },
    { requirement: { id: 'r1' }, values: ['Розчин'] },
    { requirement: { id: 'r3' }, value: 'x' },
    { requirement: { id: 'r5' }, value: true },
  );
  t.same(withItemAttributes(t1, bid, [item('i1'), item('i2')]), [
    {
      ...item('i1'),
      attributes: [
        { name: 'Форма', values: ['Розчин'] },
        { name: 'Доза', value: 5, unit: KGM },
      ],
    },
    item('i2'),
  ]);
});

t.test('no bid, no answers or an item outside the contract: no attributes', async (t) => {
  const t1 = tender([criterion('item', 'i9', [{ requirements: [{ id: 'r1', title: 'Форма' }] }])]);
  t.same(withItemAttributes(t1, undefined, [item('i1')]), [item('i1')]);
  t.same(withItemAttributes(t1, answering({ requirement: { id: 'r1' }, value: 'a' }), [item('i1')]), [item('i1')]);
  t.same(
    withItemAttributes(tender([criterion('item', 'i1', [{ requirements: [{ id: 'r1', title: 'Форма' }] }])]), answering(), [item('i1')]),
    [item('i1')],
  );
});

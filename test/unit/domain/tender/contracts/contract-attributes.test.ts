import t from 'tap';
import { withItemAttributes } from '../../../../../src/domain/tender/contracts/contract-attributes';
import type { Item } from '../../../../../src/domain/core/shapes';
import type { Bid, Criterion, Requirement, RequirementResponse, Tender } from '../../../../../src/domain/tender/tender.types';

const item = (id: string): Item => ({ id, description: id, classification: { scheme: 'ДК021', id: '44617100-9', description: 'Cartons' } });
const KGM = { name: 'кілограми', code: 'KGM' };
/** A requirement as `criteria/` stores it: `active` unless `extra` says otherwise. */
const requirement = (id: string, title: string, extra: Partial<Requirement> = {}): Requirement => ({
  id,
  title,
  dataType: 'string',
  status: 'active',
  datePublished: '2026-01-01T00:00:00+02:00',
  ...extra,
});
const criterion = (relatesTo: Criterion['relatesTo'], relatedItem: string, groups: Requirement[][]): Criterion => ({
  id: `${relatesTo}-${relatedItem}`,
  title: 'Criterion',
  classification: { scheme: 'espd211', id: 'CRITERION.OTHER' },
  relatesTo,
  relatedItem,
  requirementGroups: groups.map((requirements, i) => ({ id: `g${i}`, description: 'Group', requirements })),
});
const tender = (criteria: Criterion[]) => ({ criteria }) as Tender;
const answering = (...responses: Omit<RequirementResponse, 'id'>[]): Bid => ({
  id: 'b1',
  status: 'active',
  requirementResponses: responses.map((r, i) => ({ id: `rr${i}`, ...r })),
});

t.test("an item criterion's answered active requirements become the item's attributes, in the criteria's order", async (t) => {
  const t1 = tender([
    criterion('item', 'i1', [
      [requirement('r1', 'Форма'), requirement('r2', 'Доза', { unit: KGM }), requirement('r3', 'Скасована', { status: 'cancelled' })],
      [requirement('r4', 'Не відповіли')],
    ]),
    criterion('tender', 'i1', [[requirement('r5', 'Мова')]]),
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
  const t1 = tender([criterion('item', 'i9', [[requirement('r1', 'Форма')]])]);
  t.same(withItemAttributes(t1, undefined, [item('i1')]), [item('i1')]);
  t.same(withItemAttributes(t1, answering({ requirement: { id: 'r1' }, value: 'a' }), [item('i1')]), [item('i1')]);
  t.same(withItemAttributes(tender([criterion('item', 'i1', [[requirement('r1', 'Форма')]])]), answering(), [item('i1')]), [item('i1')]);
});

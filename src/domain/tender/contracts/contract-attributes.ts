import type { ContractedItem, Item, ItemAttribute } from '../../core/shapes';
import type { Bid, Tender } from '../tender.types';

/** A response as the bid stores it (docs/tenders.md §Requirement responses): the members read here. */
interface StoredResponse {
  requirement?: { id?: string };
  value?: unknown;
  values?: unknown[];
}

/**
 * `set_attributes_to_contract_items`: for each criterion of `relatesTo: item`, each active requirement the winning
 * bid answered becomes an attribute of that item, `{name: requirement title, value or values as answered, unit of
 * the requirement}`, in the criteria's order; items without one get none (docs/tenders.md §Contracts of a tender).
 */
export function withItemAttributes(t: Tender, bid: Bid | undefined, items: Item[]): ContractedItem[] {
  const responses = new Map(((bid?.requirementResponses ?? []) as StoredResponse[]).map((r) => [r.requirement?.id, r]));
  const byItem = new Map<string, ItemAttribute[]>();
  for (const criterion of t.criteria ?? []) {
    if (criterion.relatesTo !== 'item' || !criterion.relatedItem) continue;
    for (const requirement of (criterion.requirementGroups ?? []).flatMap((g) => g.requirements ?? [])) {
      const response = responses.get(requirement.id);
      if (!response || (requirement.status ?? 'active') !== 'active') continue;
      const attribute: ItemAttribute = {
        name: requirement.title ?? '',
        ...(response.value !== undefined ? { value: response.value } : {}),
        ...(response.values !== undefined ? { values: response.values } : {}),
        ...(requirement.unit ? { unit: requirement.unit } : {}),
      };
      byItem.set(criterion.relatedItem, [...(byItem.get(criterion.relatedItem) ?? []), attribute]);
    }
  }
  return items.map((item) => (byItem.has(item.id) ? { ...item, attributes: byItem.get(item.id) } : item));
}

import { notFound } from '../../http/errors';
import type { Doc } from '../../store/port';

/** A sub-resource list of an object (`lots`, `questions`, `changes`…), empty when the object has none. */
export const itemsOf = (holder: Doc, list: string): Doc[] => (holder[list] as Doc[] | undefined) ?? [];

/** The item of `holder[list]` with this id, or the reference's 404 naming its id (`lot_id`, `change_id`…). */
export function itemById(holder: Doc, list: string, id: string, idName: string): Doc {
  const item = itemsOf(holder, list).find((x) => x.id === id);
  if (!item) throw notFound(idName);
  return item;
}

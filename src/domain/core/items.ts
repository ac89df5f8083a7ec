import { notFound } from '../../http/errors';

/** The element type of `holder[list]`: a typed holder's own, a JSON object's for an untyped one. */
type ItemOf<H, K extends keyof H> = 0 extends 1 & H[K]
  ? Record<string, unknown>
  : NonNullable<H[K]> extends readonly (infer E)[]
    ? E
    : never;

/** A sub-resource list of an object (`lots`, `questions`, `changes`…), empty when the object has none. */
export const itemsOf = <H extends object, K extends keyof H & string>(holder: H, list: K): ItemOf<H, K>[] =>
  (holder[list] as ItemOf<H, K>[] | undefined) ?? [];

/** The item of `holder[list]` with this id, or the reference's 404 naming its id (`lot_id`, `change_id`…). */
export function itemById<H extends object, K extends keyof H & string>(holder: H, list: K, id: string, idName: string): ItemOf<H, K> {
  const item = itemsOf(holder, list).find((x) => (x as { id?: unknown }).id === id);
  if (!item) throw notFound(idName);
  return item;
}

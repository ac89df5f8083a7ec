/**
 * Leaves out `null`, `undefined`, empty strings, and objects and arrays that end up empty, at every depth, as
 * the reference's `remove_nones` (docs/ocds.md §Empty fields). Returns the value it was given, pruned in place.
 */
export function prune<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const element of value) prune(element);
  } else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const [key, member] of Object.entries(object)) {
      prune(member);
      if (isEmpty(member)) delete object[key];
    }
  }
  return value;
}

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && Object.keys(value).length === 0);

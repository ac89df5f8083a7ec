/**
 * The reference's PATCH semantics (`apply_data_patch`): objects merge member by member, anything else
 * (lists included) replaces the stored value. The input objects are not modified.
 */
export function mergePatch<T extends Record<string, unknown>>(stored: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const before = out[key];
    out[key] = isPlainObject(value) && isPlainObject(before) ? mergePatch(before, value) : value;
  }
  return out as T;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A JSON value as Python's `repr()` prints it, as the reference's messages quote values (schematics' conversion
 * texts, jsonschema's config texts: docs/platform.md §Amounts sent as strings): `'a'`, `True`, `None`, `[1, 'a']`,
 * `{'k': 1e-07}`. Reads members only as data: a JSON object may carry members named `toString` or `valueOf`.
 */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
    return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
    .join(', ')}}`;
}

import type { Requirement, ResponseValue } from '../tender.types';

/**
 * Values of a requirement's `dataType`, as the reference converts them (`TYPEMAP` in
 * `tender/core/procedure/validation.py`): a requirement's expected values (docs/tenders.md §Criteria) and a bid's
 * answers (docs/tenders.md §Requirement responses).
 */

/** A value as Python's `str()` prints it in the reference's messages. */
export const py = (v: unknown) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v));

type Converted = { value: ResponseValue; error?: undefined } | { value?: undefined; error: string };

/** schematics' conversion of a value to the requirement's `dataType` (the reference's `TYPEMAP`), with its texts. */
const CONVERT: Record<string, (v: ResponseValue) => Converted> = {
  boolean: (v) => {
    if (typeof v === 'boolean') return { value: v };
    if (['True', 'true', '1', 1].includes(v)) return { value: true };
    if (['False', 'false', '0', 0].includes(v)) return { value: false };
    return { error: 'Must be either true or false.' };
  },
  integer: (v) => {
    const n = typeof v === 'boolean' ? Number(v) : typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : v;
    return typeof n === 'number' && Number.isInteger(n) ? { value: n } : { error: `Value '${py(v)}' is not int.` };
  },
  number: (v) => {
    const n = typeof v === 'boolean' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    return typeof n === 'number' && !Number.isNaN(n) ? { value: n } : { error: `Number '${py(v)}' failed to convert to a decimal.` };
  },
  string: (v) => {
    if (typeof v === 'string') return { value: v };
    return Number.isInteger(v) || typeof v === 'boolean' ? { value: py(v) } : { error: `Couldn't interpret '${py(v)}' as string.` };
  },
};

export const convert = (dataType: string, v: ResponseValue): Converted => CONVERT[dataType]?.(v) ?? { value: v };

/**
 * `MatchResponseValue._match_expected_values` (without the extra values of market items, which no procedure here
 * has): the answers, converted and without repeats, within the requirement's `expectedMinItems`/`expectedMaxItems`
 * and among its `expectedValues`; the reference's text of the first miss, or undefined.
 */
export function expectedValuesMiss(requirement: Requirement, values: ResponseValue[]): string | undefined {
  const { id, dataType, expectedValues, expectedMinItems, expectedMaxItems } = requirement;
  const answered = new Set(values);
  if (expectedMaxItems !== undefined && expectedMaxItems < answered.size) {
    return `Count of values is higher than maximum of ${expectedMaxItems} for requirement ${id}`;
  }
  if (expectedMinItems !== undefined && expectedMinItems > answered.size) {
    return `Count of values is less than minimum of ${expectedMinItems} for requirement ${id}`;
  }
  const expected = new Set((expectedValues ?? []).map((v) => convert(dataType, v).value));
  if (expected.size && [...answered].some((v) => !expected.has(v))) {
    return `One or more values are not among expected values for requirement ${id}`;
  }
  return undefined;
}

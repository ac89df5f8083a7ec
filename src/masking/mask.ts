/**
 * Hiding rules for restricted objects (spec: "Hiding rules for restricted objects"): a declarative table of
 * JSONPath-like paths, applied by one function to objects, feed entries and documents alike.
 *
 * Path syntax: `a.b`, `a[*].b` (every element), `..a` (key `a` at any depth). Only fields that exist are
 * replaced, as the reference does; a field's replacement follows from its name.
 */
export type MaskTable = readonly string[];

export const HIDDEN_TEXT = 'Приховано';
export const HIDDEN_TEXT_EN = 'Hidden';
export const HIDDEN_DATE = '1111-11-11T00:00:00+02:00';
export const HIDDEN_NUMBER = 0.0;

type Segment = { key: string; deep: boolean; each: boolean };

const compiled = new Map<string, Segment[]>();

function compile(path: string): Segment[] {
  let segments = compiled.get(path);
  if (!segments) {
    segments = [];
    const source = path.replace(/^\$/, '');
    const re = /(\.\.|\.)?([^.[\]]+)(\[\*\])?/g;
    for (let m = re.exec(source); m; m = re.exec(source)) {
      segments.push({ key: m[2], deep: m[1] === '..', each: !!m[3] });
    }
    compiled.set(path, segments);
  }
  return segments;
}

/** The replacement for a hidden field, by the spec's rules. */
export function replacementFor(field: string, parent: string | undefined): unknown {
  // Spec, contract hiding rules: `changes[*].rationale_en` is `Приховано` like its siblings, not `Hidden`.
  if (field === 'rationale_en') return HIDDEN_TEXT;
  if (field.endsWith('_en')) return HIDDEN_TEXT_EN;
  if (parent === 'deliveryDate' && (field === 'startDate' || field === 'endDate')) return HIDDEN_DATE;
  if (field === 'latitude' || field === 'longitude') return HIDDEN_NUMBER;
  return HIDDEN_TEXT;
}

/** Returns a masked deep copy; the input is never modified. */
export function applyMask<T>(doc: T, table: MaskTable): T {
  const copy = structuredClone(doc);
  for (const path of table) walk(copy, compile(path), 0, undefined);
  return copy;
}

function walk(node: unknown, segments: Segment[], i: number, parentKey: string | undefined): void {
  if (!node || typeof node !== 'object') return;
  const seg = segments[i];
  if (seg.deep) {
    for (const [key, child] of Object.entries(node)) {
      if (key !== seg.key) walk(child, segments, i, key);
    }
  }
  if (Array.isArray(node)) return;
  const record = node as Record<string, unknown>;
  if (!(seg.key in record)) return;
  const value = record[seg.key];
  const last = i === segments.length - 1;
  if (last && !seg.each) {
    if (value !== null && value !== undefined && typeof value !== 'object') record[seg.key] = replacementFor(seg.key, parentKey);
    return;
  }
  if (seg.each) {
    if (!Array.isArray(value)) return;
    if (!last) for (const element of value) walk(element, segments, i + 1, seg.key);
    return;
  }
  walk(value, segments, i + 1, seg.key);
}

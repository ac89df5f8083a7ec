/**
 * What one pass over a JSON text found: its nesting, how many objects and arrays it holds, its widest object and
 * its longest array.
 */
export interface JsonShape {
  depth: number;
  containers: number;
  /** The most members one object of the text has. */
  widestObject: number;
  /** The most elements one array of the text has. */
  longestArray: number;
}

// Character codes of the JSON grammar (RFC 8259).
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isDigit = (c: number) => c >= ZERO && c <= NINE;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** The escapes JSON allows after a backslash, `u` aside: `" \ / b f n r t`. */
const isSimpleEscape = (c: number) =>
  c === QUOTE || c === BACKSLASH || c === SLASH || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74;

// What the scanner expects next.
const VALUE = 0;
/** A value or, right after `[`, its end. */
const FIRST_VALUE = 1;
const KEY = 2;
/** A key or, right after `{`, its end. */
const FIRST_KEY = 3;
/** After a value: a comma, the end of its container, or the end of the text. */
const AFTER = 4;

const OBJECT = 1;
const ARRAY = 2;

/**
 * Measures a JSON text without building it: one pass of `charCodeAt` that checks the grammar as `JSON.parse`
 * does and counts as it goes, allocating nothing per token (a byte per open container, for the kinds of those
 * open). `undefined` when the text is not JSON, so that `JSON.parse` alone words that error
 * (docs/platform.md §Limits). Members and elements are counted in the containers of the first 64 levels only.
 */
export function scanJson(text: string): JsonShape | undefined {
  const end = text.length;
  let kinds = new Uint8Array(64);
  const entries = new Uint32Array(64); // members or elements of each open container, for the first 64 levels
  let depth = 0;
  let maxDepth = 0;
  let containers = 0;
  let widestObject = 0;
  let longestArray = 0;
  let state = VALUE;
  let i = 0;
  for (;;) {
    let c = text.charCodeAt(i);
    while (c === SPACE || c === LF || c === CR || c === TAB) c = text.charCodeAt(++i);
    if (state === AFTER) {
      if (depth === 0) return i === end ? { depth: maxDepth, containers, widestObject, longestArray } : undefined;
      const kind = kinds[depth - 1];
      i++;
      if (c === COMMA) state = kind === OBJECT ? KEY : VALUE;
      else if (c === (kind === OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) depth--;
      else return undefined;
      continue;
    }
    if ((state === FIRST_VALUE && c === CLOSE_ARRAY) || (state === FIRST_KEY && c === CLOSE_OBJECT)) {
      i++;
      depth--;
      state = AFTER;
      continue;
    }
    const isKey = state === KEY || state === FIRST_KEY;
    if (!isKey && depth > 0 && depth <= entries.length && kinds[depth - 1] === ARRAY) {
      const count = ++entries[depth - 1];
      if (count > longestArray) longestArray = count;
    }
    if (c === QUOTE) {
      // A string: any character but `"`, `\` and controls, or an escape.
      for (i++; ;) {
        if (i >= end) return undefined;
        const s = text.charCodeAt(i++);
        if (s === QUOTE) break;
        if (s < SPACE) return undefined;
        if (s === BACKSLASH) {
          const e = text.charCodeAt(i++);
          if (e === 0x75) {
            if (
              !isHex(text.charCodeAt(i)) ||
              !isHex(text.charCodeAt(i + 1)) ||
              !isHex(text.charCodeAt(i + 2)) ||
              !isHex(text.charCodeAt(i + 3))
            )
              return undefined;
            i += 4;
          } else if (!isSimpleEscape(e)) return undefined;
        }
      }
      if (!isKey) {
        state = AFTER;
        continue;
      }
      c = text.charCodeAt(i);
      while (c === SPACE || c === LF || c === CR || c === TAB) c = text.charCodeAt(++i);
      if (c !== COLON) return undefined;
      i++;
      if (depth <= entries.length) {
        const count = ++entries[depth - 1];
        if (count > widestObject) widestObject = count;
      }
      state = VALUE;
      continue;
    }
    if (isKey) return undefined;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === kinds.length) {
        const grown = new Uint8Array(depth * 2);
        grown.set(kinds);
        kinds = grown;
      }
      kinds[depth] = c === OPEN_OBJECT ? OBJECT : ARRAY;
      if (depth < entries.length) entries[depth] = 0;
      depth++;
      containers++;
      if (depth > maxDepth) maxDepth = depth;
      i++;
      state = c === OPEN_OBJECT ? FIRST_KEY : FIRST_VALUE;
      continue;
    }
    if (c === MINUS || isDigit(c)) {
      // A number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
      if (c === MINUS) c = text.charCodeAt(++i);
      if (c === ZERO) c = text.charCodeAt(++i);
      else if (isDigit(c)) while (isDigit(c)) c = text.charCodeAt(++i);
      else return undefined;
      if (c === DOT) {
        c = text.charCodeAt(++i);
        if (!isDigit(c)) return undefined;
        while (isDigit(c)) c = text.charCodeAt(++i);
      }
      if (c === 0x65 || c === 0x45) {
        c = text.charCodeAt(++i);
        if (c === PLUS || c === MINUS) c = text.charCodeAt(++i);
        if (!isDigit(c)) return undefined;
        while (isDigit(c)) c = text.charCodeAt(++i);
      }
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else return undefined;
    state = AFTER;
  }
}

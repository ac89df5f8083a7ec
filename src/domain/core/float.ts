import Joi from 'joi';

/**
 * The whitespace Python's `float()` strips around a number (docs/platform.md §Amounts sent as strings): not
 * JavaScript's `\s` (no U+FEFF) and not Python's `str.isspace` (no U+001C–U+001F).
 */
const SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*';
const DIGITS = '\\d(?:_?\\d)*';
const NUMBER = new RegExp(`^${SPACE}([+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?)${SPACE}$`);
const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * A Unicode decimal digit as its ASCII digit: Unicode encodes each script's digits as whole runs of 0–9,
 * so a digit's value is its distance from the start of its run, modulo 10.
 */
function asciiDigit(char: string): string {
  const code = char.codePointAt(0) as number;
  let start = code;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((code - start) % 10);
}

/**
 * The number Python's `float()` makes of a string, as the reference's `FloatType` converts one
 * (docs/platform.md §Amounts sent as strings); `undefined` where it refuses, and where the result is not
 * finite (`"inf"`, `"nan"`, `"1e400"`), which JSON cannot carry.
 */
export function pythonFloat(text: string): number | undefined {
  const ascii = text.replace(/\p{Nd}/gu, (d) => (d >= '0' && d <= '9' ? d : asciiDigit(d)));
  const match = NUMBER.exec(ascii);
  if (!match) return undefined;
  const value = Number(match[1].replace(/_/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

const floatType = Joi.extend((joi) => ({
  type: 'float',
  base: joi.number().prefs({ convert: true }),
  prepare(value, helpers) {
    if (typeof value === 'boolean') return { value: Number(value) };
    if (typeof value !== 'string') return undefined;
    const number = pythonFloat(value);
    return number === undefined ? { value, errors: [helpers.error('number.base', { value })] } : { value: number };
  },
})) as Joi.Root & { float(): Joi.NumberSchema };

/**
 * A member the reference declares `FloatType` (amounts, quantities, percentages…): a JSON number, or a string
 * or boolean converted as `float()` converts it, then checked with the usual number rules
 * (docs/platform.md §Amounts sent as strings).
 */
export const float = (): Joi.NumberSchema => floatType.float();

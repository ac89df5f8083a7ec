/**
 * The members the reference declares `FloatType` (docs/platform.md §Numbers): written with a decimal point even
 * when whole (`500.0`), as the reference's JSON renderer writes Python floats.
 */
const FLOAT_MEMBERS = ['amount', 'amountNet', 'quantity', 'percentage'];

/**
 * A float member whose JSON.stringify text is a whole number. The `"` after the name is unescaped, so it ends a
 * key: inside a string it would be `\"`. (The opening `"` could only be an escaped one in a key holding a `"`,
 * which no schema of the API accepts.) One pass, about a quarter of what JSON.stringify spends on the same value.
 */
const WHOLE_FLOAT = new RegExp(`("(?:${FLOAT_MEMBERS.join('|')})":\\s*-?\\d+)(?![\\d.eE])`, 'g');

/** JSON text with every whole float member written as a float. */
export const withFloats = (json: string): string => json.replace(WHOLE_FLOAT, '$1.0');

/**
 * JSON.stringify as the API writes: whole float members as `500.0`. Every JSON text the API answers or the
 * SQLite store keeps (whence SQL renders feeds and views) is written by this.
 */
export const apiJson = (value: unknown, indent?: number): string => withFloats(JSON.stringify(value, null, indent));

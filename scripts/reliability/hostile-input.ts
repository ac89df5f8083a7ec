import fc from 'fast-check';

/** Arbitraries of hostile request parts: what a broken or malicious client sends. */

const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff',
  '\uffff',
  '\u202e\u202d',
  '𝕏𝕐',
  'ﷺ',
  'e\u0301',
  '\r\n\t',
  '1111-11-11',
  '2026-02-30T00:00:00+02:00',
  '2026-13-01',
  '9999-99-99T99:99:99Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:01Z',
  'not a date',
  'NaN',
  'Infinity',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '{"$where": "1"}',
  '<script>alert(1)</script>',
  "'; DROP TABLE objects; --",
  '../../etc/passwd',
  '%00',
  'null',
];

const EDGE_NUMBERS = [
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  1e308,
  -1e308,
  5e-324,
  -0,
  0.1 + 0.2,
  2 ** 53,
  -1,
  0,
  1e21,
];

const KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'status',
  'id',
  'owner',
  'data',
  'access',
  'config',
  'secrets',
  '',
];

const scalar = fc.oneof(
  fc.constantFrom(...EDGE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constant('x'.repeat(200_000)),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

const key = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 12 }));

/** A JSON value built from hostile scalars, with hostile keys and bounded depth. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    fc.constant(nested(40)),
    fc.constant(Array.from({ length: 50_000 }, () => 0)),
  ),
})).value;

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Every path into a JSON value (objects and arrays), so one can be replaced. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = [...prefix, Array.isArray(value) ? Number(k) : k];
    return [path, ...pathsOf(v, path)];
  });
}

function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[head] = replaced(copy[head], rest, replacement);
  return copy;
}

/** A request body as text: the valid body with one part replaced or added, or a hostile envelope. */
export function hostileBody(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const paths = pathsOf(valid);
  const mutated = fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, value]) => JSON.stringify(replaced(valid, path, value)));
  const added = fc
    .tuple(fc.constantFrom(...paths.filter((p) => typeof p[p.length - 1] === 'string')), key, hostileValue)
    .map(([path, name, value]) => JSON.stringify(replaced(valid, [...path.slice(0, -1), name], value)));
  const text = JSON.stringify(valid);
  const inner = text.slice(1, -1);
  return fc.oneof(
    mutated,
    added,
    hostileValue.map((value) => JSON.stringify({ data: value })),
    hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
    // Keys JSON.stringify cannot write as own properties, and duplicate keys (the last one wins in JSON.parse).
    fc.constantFrom(
      `{${inner}, "__proto__": {"status": "active", "owner": "broker2"}}`,
      `{"data": {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}}`,
      `{${inner}, "data": {"status": "complete"}}`,
      `{"data": {"status": "draft", "status": "active"}}`,
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      `{"data": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
      text.slice(0, Math.floor(text.length / 2)),
      `${text}garbage`,
      '\ufeff' + text,
    ),
  );
}

/** Every UTF-8 byte escaped (lone surrogates, which encodeURIComponent refuses, become U+FFFD). */
const percentEncoded = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Query strings for feeds and single reads. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'offset',
        'limit',
        'descending',
        'mode',
        'opt_fields',
        'acc_token',
        'opt_pretty',
        'opt_jsonp',
        '__proto__',
        'offset[]',
      ),
      fc.oneof(
        fc
          .oneof(
            fc.constantFrom(...EDGE_STRINGS),
            fc.string({ unit: 'binary', maxLength: 30 }),
            fc.integer().map(String),
            fc.double().map(String),
          )
          .map(percentEncoded),
        // Escapes that decode to nothing valid.
        fc.constantFrom('%', '%zz', '%ff%fe', '%ED%A0%80', '%00'),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&'));

/** fetch refuses header values with control characters or non-Latin-1 text; those never reach a server anyway. */
const isHeaderValue = (v: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(v);

/** Request headers a client should never send (each may be left out). */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      authorization: fc.oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Basic',
          'Basic !!!',
          'Basic Og==',
          'Bearer broker\u0000',
          'Negotiate x',
          'bearer BROKER',
          'Bearer ' + 'k'.repeat(10_000),
        ),
        fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
      ),
      'x-access-token': fc.oneof(fc.constantFrom('', '0'.repeat(32), 'z'.repeat(10_000)), fc.string({ maxLength: 40 })),
      cookie: fc.oneof(
        fc.constantFrom('SESSION=', 'SESSION=a.b.c', 'SESSION=eyJhbGciOiJub25lIn0.eyJuIjoieCJ9.', 'SESSION=x; SESSION=y'),
        fc.string({ maxLength: 60 }).map((s) => `SESSION=${encodeURIComponent(s)}`),
      ),
      'content-type': fc.constantFrom(
        'application/json',
        'application/json; charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/merge-patch+json',
        '',
      ),
      'x-forwarded-for': fc.constantFrom('1.1.1.1', 'not an ip', '::1, 10.0.0.1', ''),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, v]) => isHeaderValue(v))));

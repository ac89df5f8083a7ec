import t from 'tap';
import fc from 'fast-check';
import { scanJson, type JsonShape } from '../../../src/http/json-scan';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The shape of a parsed value, counted the slow way. */
function shapeOf(value: unknown, level = 0): JsonShape {
  if (!value || typeof value !== 'object') return { depth: level, containers: 0, widestObject: 0, longestArray: 0 };
  const children = Object.values(value).map((child) => shapeOf(child, level + 1));
  return {
    depth: Math.max(level + 1, ...children.map((c) => c.depth)),
    containers: 1 + children.reduce((n, c) => n + c.containers, 0),
    widestObject: Math.max(Array.isArray(value) ? 0 : Object.keys(value).length, ...children.map((c) => c.widestObject)),
    longestArray: Math.max(Array.isArray(value) ? value.length : 0, ...children.map((c) => c.longestArray)),
  };
}

t.test('a JSON text → its depth, objects and arrays, the most members of one object and elements of one array', async (t) => {
  t.same(scanJson('{"a": [1, {"b": null, "c": true, "d": false}], "e": {}, "f": []}'), {
    depth: 3,
    containers: 5,
    widestObject: 3,
    longestArray: 2,
  });
  t.same(scanJson('[]'), { depth: 1, containers: 1, widestObject: 0, longestArray: 0 });
  t.same(scanJson('"text"'), { depth: 0, containers: 0, widestObject: 0, longestArray: 0 }, 'a scalar nests nothing');
  t.same(
    scanJson(' \t\r\n{ "a" : 1 , "a" : 2 }\n'),
    { depth: 1, containers: 1, widestObject: 2, longestArray: 0 },
    'whitespace; repeated keys each count',
  );
});

t.test('quotes escaped, backslashes and brackets inside strings are text, not structure', async (t) => {
  t.same(scanJson('{"a": "x\\"}{[", "b": "\\\\", "c": "]]\\\\\\"[["}'), { depth: 1, containers: 1, widestObject: 3, longestArray: 0 });
  t.same(scanJson('["{\\"k\\": [1]}"]'), { depth: 1, containers: 1, widestObject: 0, longestArray: 1 });
  t.same(scanJson('{"\\"a:": 1}'), { depth: 1, containers: 1, widestObject: 1, longestArray: 0 }, 'a colon inside a key');
});

t.test('unicode, escapes and every number form are JSON', async (t) => {
  const text = '["Київ \\u041a\\u0438\\u0457\\u0432 \u2028 \ud83d\ude00 \\ud800 \\/\\b\\f\\n\\r\\t", 0, -0, 12, -1.5, 2e10, 3E-2, 4.5e+3]';
  t.ok(parses(text));
  t.same(scanJson(text), { depth: 1, containers: 1, widestObject: 0, longestArray: 8 });
});

t.test('malformed or truncated text → no shape, left for JSON.parse to word', async (t) => {
  const malformed = [
    '',
    ' ',
    '{"data": ',
    '{"data": {"a": [1, 2',
    '{"a": "x\\"}',
    '["\\',
    '["\\u12"]',
    '["\\x"]',
    '["a\nb"]',
    '{"a" 1}',
    "{'a': 1}",
    '{"a": 1,}',
    '[1,]',
    '[,1]',
    '{,}',
    '{1: 2}',
    '[1 2]',
    '[01]',
    '[1.]',
    '[.5]',
    '[-]',
    '[1e]',
    '[+1]',
    '[tru]',
    '[True]',
    '[nul]',
    '[NaN]',
    '{}}',
    '[]]',
    '[}',
    '{]',
    '{} {}',
    '\ufeff{}',
    'data=1',
  ];
  for (const text of malformed) {
    t.equal(scanJson(text), undefined, JSON.stringify(text));
    t.notOk(parses(text), `JSON.parse refuses ${JSON.stringify(text)} too`);
  }
});

t.test('any JSON value serialized → the shape its parsed value has', async () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, indent) => {
      const text = JSON.stringify(value, null, indent ? 2 : undefined);
      const shape = scanJson(text);
      if (JSON.stringify(shape) !== JSON.stringify(shapeOf(JSON.parse(text)))) throw new Error(`${text}: ${JSON.stringify(shape)}`);
    }),
    { seed: 17, numRuns: 2000 },
  );
});

t.test('text cut, spliced and patched from JSON → a shape exactly when JSON.parse accepts it', async () => {
  const fragments = [
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    '"a"',
    '1',
    '-',
    '0',
    '.',
    'e',
    '+',
    ' ',
    '\n',
    'true',
    'nul',
    '\\u00',
    'x',
    '\u0001',
  ];
  const mutation = fc.tuple(fc.nat(), fc.constantFrom('cut', 'delete', 'insert'), fc.constantFrom(...fragments));
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), (value, mutations) => {
      let text = JSON.stringify(value);
      for (const [at, kind, fragment] of mutations) {
        const p = at % (text.length + 1);
        text =
          kind === 'cut'
            ? text.slice(0, p)
            : kind === 'delete'
              ? text.slice(0, p) + text.slice(p + 1)
              : text.slice(0, p) + fragment + text.slice(p);
      }
      if ((scanJson(text) !== undefined) !== parses(text)) throw new Error(`disagrees with JSON.parse on ${JSON.stringify(text)}`);
    }),
    { seed: 17, numRuns: 20000 },
  );
});

t.test('nesting far deeper than any stack is measured, not overflowed', async (t) => {
  const levels = 300_000;
  t.same(scanJson('['.repeat(levels) + ']'.repeat(levels)), { depth: levels, containers: levels, widestObject: 0, longestArray: 1 });
  t.equal(scanJson('['.repeat(levels) + ']'.repeat(levels - 1)), undefined, 'one bracket short');
});

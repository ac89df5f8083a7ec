import t from 'tap';
import { pythonFloat } from '../../../../src/domain/core/float';
import { pythonRepr } from '../../../../src/domain/core/python-repr';

/** Python's float() of a string, as the reference's FloatType converts (docs/platform.md §Amounts sent as strings). */
t.test('strings float() reads → their number', async (t) => {
  const cases: [string, number][] = [
    ['1000', 1000],
    [' \t100\n', 100],
    ['\u00a01\u3000', 1],
    ['+5', 5],
    ['-5', -5],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['1.5E-3', 0.0015],
    ['1.e5', 100000],
    ['1_000.5_5', 1000.55],
    ['1e1_0', 1e10],
    ['\uff11\uff12', 12],
    ['\u0661\u0662\u0663', 123],
    ['\u{1D7D9}\u{1D7E2}', 10],
    ['0.1', 0.1],
  ];
  for (const [text, number] of cases) t.equal(pythonFloat(text), number, JSON.stringify(text));
});

t.test('strings float() refuses, and those it reads as inf or nan → undefined', async (t) => {
  for (const text of [
    'abc',
    '',
    ' ',
    '0x10',
    '1,5',
    '1__0',
    '_1',
    '1_',
    '1_.5',
    '1._5',
    '1e',
    'e1',
    '.',
    '.e5',
    '1 0',
    '\ufeff1',
    '\u001c1',
    'inf',
    '-Infinity',
    'nan',
    'NaN',
    '1e400',
  ]) {
    t.equal(pythonFloat(text), undefined, JSON.stringify(text));
  }
});

t.test("values as Python's repr prints them in the reference's texts", async (t) => {
  t.equal(pythonRepr([1, 'a', null, true, false]), "[1, 'a', None, True, False]");
  t.equal(pythonRepr({ a: { b: [] } }), "{'a': {'b': []}}");
  t.equal(pythonRepr("it's"), '"it\'s"');
  t.equal(pythonRepr('a\\b\n'), "'a\\\\b\\n'");
  t.equal(pythonRepr(1e-7), '1e-07');
  t.equal(pythonRepr({ toString: 3, valueOf: 1e308 }), "{'toString': 3, 'valueOf': 1e+308}");
});

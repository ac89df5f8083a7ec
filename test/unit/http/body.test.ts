import t from 'tap';
import { MAX_ARRAY_ELEMENTS, MAX_CONTAINERS, MAX_DEPTH, MAX_OBJECT_MEMBERS, parseJson } from '../../../src/http/body';
import { ApiError } from '../../../src/http/errors';
import { scanJson } from '../../../src/http/json-scan';
import { LIST_LIMITS } from '../../../src/domain/core/lists';
import { aLot, aTender, anItem, milestones, procuringEntity } from '../../fixtures/tenders';

/** The error `parseJson` throws for `text`, as `[status, errors]`; none when it parses. */
function refusal(text: string): [number, unknown[]] | undefined {
  try {
    parseJson(text);
    return undefined;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return [err.status, err.errors];
  }
}
const bodyError = (description: string) => [422, [{ location: 'body', name: 'data', description }]];

const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '[]' + '}'.repeat(levels - 1);
/** `count` objects and arrays, none longer than 1000 elements: a list of lists of `{}`. */
const objects = (count: number) => {
  const lists: string[] = [];
  for (let left = count - 1; left > 0; left -= 1000)
    lists.push(
      `[${Array(Math.min(left, 1000) - 1)
        .fill('{}')
        .join(',')}]`,
    );
  return `[${lists.join(',')}]`;
};
const elements = (count: number) => `[${Array(count).fill('1').join(',')}]`;
const members = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',')}}`;

t.test(`${MAX_DEPTH} levels of nesting parse; one more → 422 "JSON nested deeper than 32 levels"`, async (t) => {
  t.equal(scanJson(nested(MAX_DEPTH))?.depth, MAX_DEPTH);
  t.equal(refusal(nested(MAX_DEPTH)), undefined);
  t.same(refusal(nested(MAX_DEPTH + 1)), bodyError('JSON nested deeper than 32 levels'));
});

t.test(`${MAX_CONTAINERS} objects and arrays parse; one more → 422, unparsed`, async (t) => {
  t.equal(scanJson(objects(MAX_CONTAINERS))?.containers, MAX_CONTAINERS);
  t.equal(refusal(objects(MAX_CONTAINERS)), undefined);
  t.same(refusal(objects(MAX_CONTAINERS + 1)), bodyError('JSON with more than 50000 objects and arrays'));
  t.same(
    refusal(`[${Array(340_000).fill('{}').join(',')}]`),
    bodyError('JSON with more than 50000 objects and arrays'),
    'the 1 MB array of {}',
  );
});

t.test(`an array of ${MAX_ARRAY_ELEMENTS} elements parses; one more → 422, unparsed`, async (t) => {
  t.equal(refusal(`{"data": {"items": ${elements(MAX_ARRAY_ELEMENTS)}}}`), undefined);
  t.same(refusal(`{"data": {"items": ${elements(MAX_ARRAY_ELEMENTS + 1)}}}`), bodyError('JSON array with more than 10000 elements'));
  t.same(refusal(elements(520_000)), bodyError('JSON array with more than 10000 elements'), 'the 1 MB array of numbers');
});

t.test(`an object of ${MAX_OBJECT_MEMBERS} members parses; one more → 422, unparsed`, async (t) => {
  t.equal(refusal(`{"data": ${members(MAX_OBJECT_MEMBERS)}}`), undefined);
  t.same(refusal(`{"data": ${members(MAX_OBJECT_MEMBERS + 1)}}`), bodyError('JSON object with more than 1000 members'));
  t.same(refusal(members(85_000)), bodyError('JSON object with more than 1000 members'), 'the 1 MB object of unknown keys');
  const spread = `[${Array(MAX_OBJECT_MEMBERS).fill(members(10)).join(',')}]`;
  t.equal(refusal(spread), undefined, `${MAX_OBJECT_MEMBERS * 10} members spread over objects of 10`);
});

t.test('nesting is refused first, then objects and arrays, elements, members', async (t) => {
  t.same(refusal(`[${objects(MAX_CONTAINERS + 1)}, ${nested(MAX_DEPTH + 1)}]`), bodyError('JSON nested deeper than 32 levels'));
  t.same(
    refusal(`[${objects(MAX_CONTAINERS + 1)}, ${elements(MAX_ARRAY_ELEMENTS + 1)}]`),
    bodyError('JSON with more than 50000 objects and arrays'),
  );
  t.same(
    refusal(`[${elements(MAX_ARRAY_ELEMENTS + 1)}, ${members(MAX_OBJECT_MEMBERS + 1)}]`),
    bodyError('JSON array with more than 10000 elements'),
  );
});

t.test('malformed JSON over every bound still → the parser text (simplejson wording), not a bound', async (t) => {
  t.same(refusal('{"data": '), bodyError('Expecting value: line 1 column 10 (char 9)'));
  const cut = `[${Array(340_000).fill('{}').join(',')}]`.slice(0, -1);
  t.same(refusal(cut), bodyError(`Expecting value: line 1 column ${cut.length + 1} (char ${cut.length})`), 'the array of {} cut short');
  const deep = nested(40);
  t.same(refusal(deep.slice(0, -3)), bodyError(`Expecting value: line 1 column ${deep.length - 2} (char ${deep.length - 3})`));
  t.same(refusal(`{'a': ${members(2000)}}`), bodyError('Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'));
});

t.test('the largest tender the list bounds allow (every list at its bound, about 1 MB) is within every bound', async (t) => {
  const times = <T>(count: number, make: (i: number) => T) => Array.from({ length: count }, (_, i) => make(i));
  const feature = (i: number) => ({
    code: `f${i}`,
    featureOf: 'tenderer',
    title: 'Якість',
    enum: times(LIST_LIMITS.featureEnum, (j) => ({ value: 0, title: `значення ${j}`, description: 'опис' })),
  });
  const data = aTender({
    items: times(LIST_LIMITS.items, () => anItem()),
    lots: times(LIST_LIMITS.lots, () => aLot({ guarantee: { amount: 1, currency: 'UAH' } })),
    features: times(LIST_LIMITS.features, feature),
    milestones: times(LIST_LIMITS.milestones / 2, milestones).flat(),
    funders: times(LIST_LIMITS.funders, () => ({ ...procuringEntity(), additionalIdentifiers: [{ scheme: 'UA-EDR', id: '1' }] })),
  });
  const text = JSON.stringify({ data, config: { hasAuction: true } });
  const shape = scanJson(text)!;
  t.ok(text.length > 1_000_000, `${text.length} characters`);
  t.ok(
    shape.depth <= MAX_DEPTH &&
      shape.containers <= MAX_CONTAINERS &&
      shape.longestArray <= MAX_ARRAY_ELEMENTS &&
      shape.widestObject <= MAX_OBJECT_MEMBERS,
    JSON.stringify(shape),
  );
  t.ok(shape.containers > 15_000, 'the bound is of the same order as the largest body');
  t.same(parseJson(text), { data, config: { hasAuction: true } });
});

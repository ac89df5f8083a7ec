import t from 'tap';
import { parseFeedParams } from '../../../src/http/feed';

const parse = (q: Record<string, string>) => parseFeedParams('tenders', q, ['status', 'procuringEntity', 'dateCreated']);

t.test('defaults: limit 100, ascending, live mode, no offset', async (t) => {
  t.same(parse({}).query, { kind: 'tenders', offset: undefined, descending: false, limit: 100, mode: 'live' });
});

t.test('limit is capped at 1000 and raised to 1', async (t) => {
  t.equal(parse({ limit: '5000' }).query.limit, 1000);
  t.equal(parse({ limit: '0' }).query.limit, 1);
  t.equal(parse({ limit: '-3' }).query.limit, 1);
});

t.test('a non-integer limit is 400 with the reference text', async (t) => {
  t.throws(() => parse({ limit: 'ten' }), {
    status: 400,
    errors: [{ location: 'querystring', name: 'limit', description: "invalid literal for int() with base 10: 'ten'" }],
  });
});

t.test('a malformed offset is 404 "Invalid offset provided"', async (t) => {
  for (const offset of ['abc', '-1', '1e5', '12abc']) {
    t.throws(() => parse({ offset }), {
      status: 404,
      errors: [{ location: 'querystring', name: 'offset', description: `Invalid offset provided: ${offset}` }],
    });
  }
});

t.test('opt_fields keeps allowed fields only, sorted, without the default ones', async (t) => {
  t.same(parse({ opt_fields: 'status,secret,dateModified,procuringEntity,status' }).fields, ['procuringEntity', 'status']);
});

t.test('mode test and _all_ select test-only and all objects; anything else is live', async (t) => {
  t.equal(parse({ mode: 'test' }).query.mode, 'test');
  t.equal(parse({ mode: '_all_' }).query.mode, 'all');
  t.equal(parse({ mode: 'whatever' }).query.mode, 'live');
});

t.test('any non-empty descending value means newest first', async (t) => {
  t.equal(parse({ descending: '1' }).query.descending, true);
  t.equal(parse({ descending: 'yes' }).query.descending, true);
  t.equal(parse({ descending: '' }).query.descending, false);
});

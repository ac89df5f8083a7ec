/** What a trace may say of a URL (docs/operations.md §Traces): src/trace-scrub.ts. */
import t from 'tap';
import { scrubbedQuery, scrubbedUrlAttribute } from '../../src/trace-scrub';

t.test('public parameters keep their values verbatim; secret ones their name only; any other is hidden whole', async (t) => {
  t.equal(scrubbedQuery('offset=2026-10-05T12%3A00%3A00&limit=5&descending=1'), 'offset=2026-10-05T12%3A00%3A00&limit=5&descending=1');
  t.equal(
    scrubbedQuery('mode=_all_&opt_fields=status%2Ctitle&opt_schema=ocds&opt_pretty=1&all=1&feed=changes'),
    'mode=_all_&opt_fields=status%2Ctitle&opt_schema=ocds&opt_pretty=1&all=1&feed=changes',
  );
  t.equal(scrubbedQuery('acc_token=T0&download=K0'), 'acc_token=REDACTED&download=REDACTED');
  t.equal(scrubbedQuery('acc_token=T0&acc_token=T1&limit=3'), 'acc_token=REDACTED&acc_token=REDACTED&limit=3', 'a repeated token');
  t.equal(scrubbedQuery('acc%5Ftoken=T0&acc_token'), 'acc%5Ftoken=REDACTED&acc_token=REDACTED', 'an encoded name, a name alone');
  t.equal(scrubbedQuery('token=T0&T1&x=%E0%A4%A'), 'REDACTED&REDACTED&REDACTED', 'unknown names, a bare secret, bad encoding');
  t.equal(scrubbedQuery(''), 'REDACTED', 'an empty query says nothing either way');
});

t.test('url.full, http.target and http.url: the query after the first `?` is scrubbed, the rest kept', async (t) => {
  t.equal(scrubbedUrlAttribute('url.query', 'acc_token=T0&limit=2'), 'acc_token=REDACTED&limit=2');
  t.equal(
    scrubbedUrlAttribute('url.full', 'http://registry:8080/api/2.5/tenders/a1?acc_token=T0&limit=2#frag'),
    'http://registry:8080/api/2.5/tenders/a1?acc_token=REDACTED&limit=2',
    'the fragment dropped',
  );
  t.equal(
    scrubbedUrlAttribute('http.target', '/api/2.5/tenders/a1/documents/d1?download=K0'),
    '/api/2.5/tenders/a1/documents/d1?download=REDACTED',
  );
  t.equal(scrubbedUrlAttribute('http.url', 'http://h/api/2.5/tenders?offset=1&secret?x=1'), 'http://h/api/2.5/tenders?offset=1&REDACTED');
  t.equal(scrubbedUrlAttribute('http.target', '/api/2.5/tenders'), '/api/2.5/tenders', 'no query, nothing to scrub');
});

import t, { type Test } from 'tap';
import { contractRelease } from '../../../src/ocds/contract-release';
import { apiJson } from '../../../src/store/api-json';
import { tenderReleases } from '../../../src/ocds/tender-release';
import { decision, patchAward, tenderInQualification } from '../../fixtures/awards';
import { ocdsSchemasPresent, ocdsSchemasSkip, releasePackageValidator } from '../../fixtures/ocds';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { activateDraft, draftWithLots, type Created } from '../../fixtures/tenders';

/** Record packages (docs/ocds.md §Records): built in one walk, release by release, within OCDS_RECORD_LIMIT. */

/** Texts of a restricted tender's organisations that the hiding rules hide (test/http/ocds/ocds-reads.test.ts). */
const SECRETS = ['Постачальник 1', 'Постачальник 2', '10000000', '10000001', 'supplier@example.com'];
const validateRecords = ocdsSchemasPresent ? releasePackageValidator('record-package-schema.json') : () => [];

/** A tender of `lots` lots its owner may still edit (`active.enquiries`). */
async function editableTender(server: TestServer, lots: number): Promise<Created> {
  const tender = await draftWithLots(server, { lots });
  await activateDraft(server, tender, 'active.enquiries');
  return tender;
}

async function aServer(t: Test, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ env });
  t.teardown(() => server.close());
  return server;
}

/** `n` title PATCHes by the owner, the clock a second on before each but every third (which keeps `dateModified`). */
async function patchTitles(t: Test, server: TestServer, tender: Created, n: number) {
  for (let i = 0; i < n; i++) {
    if (i % 3) server.clock.set(new Date(server.clock.now().getTime() + 1000));
    const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
      key: 'broker',
      token: tender.token,
      body: { data: { title: `Назва ${i}` } },
    });
    t.equal(res.status, 200, `PATCH ${i}`);
  }
}

/**
 * The record package as it was built before (every version read on its own, here from `/historical` as this reader,
 * and all its releases made at once): one record per ocid, a repeated release id replacing the earlier one, releases
 * in date order, the latest compiled.
 */
async function recordFromHistory(server: TestServer, path: string, key: string | undefined, releasesOf: (view: any) => any[]) {
  const headers = (n?: number) => ({ key, headers: n ? { 'X-Revision-N': String(n) } : ({} as Record<string, string>) });
  const versions = Number((await server.request('GET', `${path}/historical`, headers())).headers.get('x-revision-n'));
  const releases: any[] = [];
  for (let n = 1; n <= versions; n++)
    releases.push(...releasesOf((await server.request('GET', `${path}/historical`, headers(n))).body.data));
  const byOcid = new Map<string, Map<string, any>>();
  for (const release of releases) {
    const kept = byOcid.get(release.ocid) ?? new Map();
    kept.delete(release.id);
    kept.set(release.id, release);
    byOcid.set(release.ocid, kept);
  }
  const records = [...byOcid].map(([ocid, kept]) => {
    const list = [...kept.values()].sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
    const latest = list[list.length - 1];
    return { ocid, releases: list, compiledRelease: { ...latest, id: `${ocid}-${latest.date}`, tag: ['compiled'] } };
  });
  const publishedDate = releases.map((r) => r.date).reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b));
  return { versions, publishedDate, records };
}

t.test('a record equals the one made version by version from /historical, for every reader, hiding included', async (t) => {
  const server = await aServer(t);
  const edited = await editableTender(server, 2);
  await patchTitles(t, server, edited, 7);
  const options = { procedure: 'competitiveOrdering' as const, lots: 1, config: { restricted: true } };
  const { tender, data } = await tenderInQualification(server, options);
  t.equal((await patchAward(server, tender, data.awards[0].id, decision('active', true, true))).status, 200);
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  const tenderReleasesOf = (view: any) => JSON.parse(JSON.stringify([...tenderReleases(view)]));
  const cases: [string, (view: any) => any[]][] = [
    [`/api/2.5/tenders/${tender.id}`, tenderReleasesOf],
    [`/api/2.5/contracts/${contract.id}`, (view) => JSON.parse(JSON.stringify([contractRelease(view)]))],
    [`/api/2.5/tenders/${edited.id}`, tenderReleasesOf],
  ];
  for (const key of [undefined, 'broker2', 'broker', 'brokerr']) {
    for (const [path, releasesOf] of cases) {
      const record = (await server.request('GET', `${path}?opt_schema=ocds-record`, key ? { key } : {})).body;
      const { versions, publishedDate, records } = await recordFromHistory(server, path, key, releasesOf);
      t.same(record.records, records, `${key ?? 'anonymous'}, ${path}: the same records (${versions} versions)`);
      t.equal(record.publishedDate, publishedDate);
      t.same(validateRecords(record), [], 'a valid OCDS 1.1.5 record package', { skip: ocdsSchemasSkip });
    }
  }
  for (const [key, whole] of [
    [undefined, false],
    ['brokerr', true],
  ] as const) {
    const text = (await server.request('GET', `${cases[0][0]}?opt_schema=ocds-record`, { key })).text;
    t.equal(
      SECRETS.some((secret) => text.includes(secret)),
      whole,
      `a restricted tender's record, ${key ?? 'anonymous'}: its organisations ${whole ? 'shown' : 'hidden in every release'}`,
    );
  }
  const editedRecord = (await server.request('GET', `${cases[2][0]}?opt_schema=ocds-record`)).body;
  t.equal(editedRecord.records.length, 2, 'one record per lot');
  t.equal(editedRecord.records[0].releases.length, 5, 'one release per dateModified: created, activated and PATCHed at 5 clock times');
  const pretty = await server.request('GET', `${cases[2][0]}?opt_schema=ocds-record&opt_pretty=1`);
  t.same(JSON.parse(pretty.text), editedRecord, 'opt_pretty: the same record');
  t.equal(pretty.text, apiJson(editedRecord, 4), 'indented as any answer');
});

t.test('a record package over OCDS_RECORD_LIMIT is refused, naming the limit; one within it is answered', async (t) => {
  const server = await aServer(t, { OCDS_RECORD_LIMIT: '40000' });
  const tender = await editableTender(server, 2);
  const path = `/api/2.5/tenders/${tender.id}?opt_schema=ocds-record`;
  const small = await server.request('GET', path);
  t.equal(small.status, 200, 'within the limit');
  t.ok(small.text.length <= 40000);
  await patchTitles(t, server, tender, 30);
  const refused = await server.request('GET', path);
  t.match(
    { status: refused.status, body: refused.body },
    errorReply(
      422,
      'querystring',
      'opt_schema',
      'The record package is larger than OCDS_RECORD_LIMIT (40000 bytes): read the versions one by one from /historical, or the releases with opt_schema=ocds.',
    ),
  );
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}?opt_schema=ocds`)).status, 200, 'the release package still answers');
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}/historical`)).status, 200, 'and the history');
});

/**
 * How many turns a `setImmediate` loop beside the request gets while `path` is answered: a request that held the
 * loop for the whole of its work lets it turn only on the answer's I/O.
 */
async function turnsBeside(server: TestServer, path: string) {
  let turns = 0;
  let done = false;
  const turn = () => {
    turns++;
    if (!done) setImmediate(turn);
  };
  setImmediate(turn);
  const res = await server.request('GET', path);
  done = true;
  return { res, turns };
}

t.test('a record and an OCDS feed page give the event loop back after every release', async (t) => {
  const server = await aServer(t);
  const tenders = [await editableTender(server, 5), await editableTender(server, 5)];
  await patchTitles(t, server, tenders[0], 15);
  const record = await turnsBeside(server, `/api/2.5/tenders/${tenders[0].id}?opt_schema=ocds-record`);
  t.equal(record.res.status, 200);
  const releases = record.res.body.records.reduce((sum: number, r: any) => sum + r.releases.length, 0);
  t.ok(releases >= 50, `${releases} releases in the record`);
  t.ok(record.turns >= releases, `the loop turned ${record.turns} times while ${releases} releases were made`);
  const page = await turnsBeside(server, '/api/2.5/tenders?opt_schema=ocds&limit=1000');
  t.equal(page.res.body.releases.length, 10);
  t.ok(page.turns >= 10, `the loop turned ${page.turns} times while a feed page of 10 releases was made`);
});

t.test('OCDS answers and feed pages are written byte for byte as one rendering of their whole would write them', async (t) => {
  const server = await aServer(t);
  const tenders = [await editableTender(server, 3), await editableTender(server, 2), await editableTender(server, 1)];
  await patchTitles(t, server, tenders[0], 4);
  const id = tenders[0].id;
  const paths = [
    `/api/2.5/tenders/${id}?opt_schema=ocds`,
    `/api/2.5/tenders/${id}?opt_schema=ocds-record`,
    '/api/2.5/tenders?opt_schema=ocds&limit=1000',
    '/api/2.5/tenders?opt_schema=ocds&limit=2&descending=1',
    '/api/2.5/tenders?limit=1000&opt_fields=lots,title',
    '/api/2.5/tenders?limit=2&opt_fields=lots&descending=1',
    '/api/2.5/tenders?offset=4000000000',
    '/api/2.5/tenders?offset=4000000000&opt_schema=ocds',
  ];
  for (const path of paths) {
    for (const pretty of [false, true]) {
      const res = await server.request('GET', pretty ? `${path}&opt_pretty=1` : path);
      t.equal(res.status, 200, path);
      t.equal(res.text, apiJson(JSON.parse(res.text), pretty ? 4 : undefined), `${path}${pretty ? ', pretty' : ''}`);
      // A package is whole before it is sent, so it tells its length; a plain page is sent as it is read.
      if (path.includes('opt_schema'))
        t.equal(res.headers.get('content-length'), String(Buffer.byteLength(res.text)), `${path}: its length`);
    }
  }
});

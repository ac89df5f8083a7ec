import t, { type Test } from 'tap';
import { decision, patchAward, tenderInQualification } from '../../fixtures/awards';
import { createPlan } from '../../fixtures/plans';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { tenderInTendering } from '../../fixtures/tenders';

const HIDDEN = 'Приховано';

/** Each test moves the clock its own way: each gets its own server. */
async function aServer(t: Test): Promise<TestServer> {
  const server = await startTestServer();
  t.teardown(() => server.close());
  return server;
}

t.test('opt_schema: any value containing "ocds" in any case answers OCDS, any other the ordinary view (as the reference)', async (t) => {
  const server = await aServer(t);
  const tender = await tenderInTendering(server, { lots: 0 });
  const path = `/api/2.5/tenders/${tender.id}`;
  for (const value of ['ocds', 'OCDS-1.1', 'ocds-1.1']) {
    const res = await server.request('GET', `${path}?opt_schema=${value}`);
    t.match(res.body, { version: '1.1', releases: [{ ocid: `ocds-be6bcu-${tender.id}` }] }, value);
    t.notOk(res.body.data, `${value}: no ordinary envelope`);
  }
  const plain = await server.request('GET', path);
  for (const value of ['json', '', 'xml']) {
    t.same((await server.request('GET', `${path}?opt_schema=${value}`)).body, plain.body, `"${value}" is ignored`);
  }
  const pretty = await server.request('GET', `${path}?opt_schema=ocds&opt_pretty=1`);
  t.match(pretty.text, /\n {4}"uri"/, 'opt_pretty indents it');
  const unknown = await server.request('GET', `/api/2.5/tenders/${'f'.repeat(32)}?opt_schema=ocds`);
  t.match({ status: unknown.status, body: unknown.body }, errorReply(404, 'url', 'tender_id', 'Not Found'));
  const framework = await server.request('GET', `/api/2.5/frameworks?opt_schema=ocds`);
  t.ok(Array.isArray(framework.body.data), 'collections without OCDS ignore it');
});

t.test('a release names its revision: id ends with dateModified, date is dateModified; the package uri is the OCDS address', async (t) => {
  const server = await aServer(t);
  const tender = await tenderInTendering(server, { lots: 2 });
  const { body } = await server.request('GET', `/api/2.5/tenders/${tender.id}?opt_schema=ocds`);
  const { data } = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body;
  t.equal(body.uri, `${server.url}/api/2.5/tenders/${tender.id}?opt_schema=ocds`);
  t.equal(body.publishedDate, data.dateModified);
  t.same(body.publisher, { name: data.procuringEntity.name });
  t.same(
    body.releases.map((r: any) => [r.ocid, r.id, r.date]),
    data.lots.map((lot: any) => [`ocds-be6bcu-${tender.id}-${lot.id}`, `${tender.id}-${lot.id}-${data.dateModified}`, data.dateModified]),
    'one release per lot',
  );
  t.match(body.releases[0].parties, [{ id: 'UA-EDR 00037256', roles: ['buyer', 'procuringEntity'] }]);
  t.match(body.releases[0].tender, { status: 'active', awardCriteria: 'lowestCost', procurementMethodDetails: 'belowThreshold' });
});

t.test("the OCDS feed lists the ordinary feed's entries with the same links, which keep opt_schema", async (t) => {
  const server = await aServer(t);
  const plans = [await createPlan(server), await createPlan(server), await createPlan(server)];
  const ordinary = (await server.request('GET', '/api/2.5/plans?limit=2')).body;
  const ocds = (await server.request('GET', '/api/2.5/plans?limit=2&opt_schema=ocds')).body;
  t.same(
    ocds.releases.map((r: any) => r.ocid),
    ordinary.data.map((e: any) => `ocds-be6bcu-${e.id}`),
  );
  t.same(
    ocds.releases.map((r: any) => r.id),
    ordinary.data.map((e: any) => `${e.id}-${e.dateModified}`),
  );
  t.equal(ocds.next_page.offset, ordinary.next_page.offset);
  t.equal(ocds.next_page.path, `/api/2.5/plans?limit=2&opt_schema=ocds&offset=${ordinary.next_page.offset}`);
  t.equal(ocds.publisher.name, 'Procurement Registry API 2.5');
  const next = (await server.request('GET', ocds.next_page.path)).body;
  const nextOrdinary = (await server.request('GET', ordinary.next_page.path)).body;
  t.same(
    next.releases.map((r: any) => r.ocid),
    nextOrdinary.data.map((e: any) => `ocds-be6bcu-${e.id}`),
  );
  t.ok(next.prev_page.path.includes('opt_schema=ocds'));
  t.ok(plans.length);
});

/** Every text of a restricted tender's organisations that the hiding rules hide (names, identifiers, contacts). */
const SECRETS = ['Постачальник 1', 'Постачальник 2', '10000000', '10000001', 'supplier@example.com', 'вул. Хрещатик, 1'];
const shows = (body: unknown) => SECRETS.filter((s) => JSON.stringify(body).includes(s));

t.test('a restricted tender and its contract: OCDS hides exactly what the view hides, for every reader', async (t) => {
  const server = await aServer(t);
  const options = { procedure: 'competitiveOrdering' as const, lots: 1, config: { restricted: true } };
  const { tender, data } = await tenderInQualification(server, options);
  t.equal((await patchAward(server, tender, data.awards[0].id, decision('active', true, true))).status, 200);
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  const paths = [`/api/2.5/tenders/${tender.id}`, `/api/2.5/contracts/${contract.id}`];
  for (const [reader, key, whole] of [
    ['anonymous', undefined, false],
    ['another broker (a bidder)', 'broker2', false],
    ['the owner', 'broker', true],
    ['an r broker', 'brokerr', true],
  ] as [string, string | undefined, boolean][]) {
    for (const path of paths) {
      const view = (await server.request('GET', path, key ? { key } : {})).body;
      const ocds = (await server.request('GET', `${path}?opt_schema=ocds`, key ? { key } : {})).body;
      t.same(shows(ocds), shows(view), `${reader}, ${path}: the package shows what the view shows`);
      if (whole) {
        t.ok(shows(ocds).length > 0, `${reader} sees the organisations`);
      } else {
        t.same(shows(ocds), [], `${reader} sees none of the hidden organisations`);
        const suppliers = ocds.releases[0].parties.filter((p: any) => p.roles.includes('supplier') || p.roles.includes('tenderer'));
        t.ok(suppliers.length > 0 && suppliers.every((p: any) => p.name === HIDDEN), `${reader}: their names are ${HIDDEN}`);
      }
    }
    const record = (await server.request('GET', `${paths[0]}?opt_schema=ocds-record`, key ? { key } : {})).body;
    t.equal(shows(record).length > 0, whole, `${reader}: every revision in the record hides as the current view`);
    const feed = (await server.request('GET', '/api/2.5/tenders?opt_schema=ocds&descending=1&limit=1', key ? { key } : {})).body;
    t.equal(feed.releases[0].ocid.startsWith(`ocds-be6bcu-${tender.id}`), true, 'the feed lists the restricted tender');
    t.equal(shows(feed).length > 0, whole, `${reader}: the feed hides as the single answer`);
  }
  const anonymous = (await server.request('GET', `${paths[0]}?opt_schema=ocds`)).body.releases[0];
  const tenderers = anonymous.parties.filter((p: any) => p.roles.includes('tenderer'));
  t.equal(tenderers.length, 2, 'hidden tenderers stay two parties, named by their bids');
  t.same(
    anonymous.bids.details.map((b: any) => b.tenderers[0].id),
    anonymous.bids.details.map((b: any) => b.id),
  );
});

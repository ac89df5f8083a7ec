import t, { type Test } from 'tap';
import { uploadDocument } from '../../fixtures/frameworks';
import { tenderInQualification } from '../../fixtures/awards';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { placeBid, tenderInTendering } from '../../fixtures/tenders';

/** docs/platform.md §Document fields: the documents of a tender's bids, awards and cancellations. */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const patch = (path: string, as: { key: string; token: string }, data: Record<string, unknown>) =>
  server.request('PATCH', path, { ...as, body: { data } });

/** The reference's `validate_relatedItem` on a document of `holder` (`…/documents` of a bid, award, cancellation). */
async function relatedItemChecked(t: Test, holder: string, as: { key: string; token: string }, tender: any) {
  const uploaded = await uploadDocument(server, `${holder}/documents`, as);
  t.equal(uploaded.status, 201, uploaded.text);
  const doc = `${holder}/documents/${uploaded.body.data.id}`;
  const [lot, item] = [tender.lots[0].id, tender.items[0].id];
  t.match(await patch(doc, as, { documentOf: 'lot' }), error(422, 'body', 'relatedItem', ['This field is required.']), holder);
  t.match(
    await patch(doc, as, { documentOf: 'lot', relatedItem: item }),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of lots']),
  );
  t.match(
    await patch(doc, as, { documentOf: 'item', relatedItem: lot }),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of items']),
  );
  const ok = await patch(doc, as, { documentOf: 'lot', relatedItem: lot });
  t.equal(ok.status, 200, ok.text);
  t.match(ok.body.data, { documentOf: 'lot', relatedItem: lot });
  t.equal((await patch(doc, as, { documentOf: 'item', relatedItem: item })).status, 200);
}

t.test("a bid's document: relatedItem names one of the tender's lots or items", async (t) => {
  const tender = await tenderInTendering(server, { lots: 1 });
  const bid = await placeBid(server, tender);
  await relatedItemChecked(t, `/api/2.5/tenders/${tender.id}/bids/${bid.id}`, { key: 'broker1', token: bid.token }, tender.data);
});

t.test(
  "an award's and a cancellation's document: relatedItem checked against the tender; an award document's author is tender_owner",
  async (t) => {
    server.clock.set(DEFAULT_NOW);
    const { tender, data } = await tenderInQualification(server, { lots: 1 });
    const owner = { key: 'broker', token: tender.token };
    const award = `/api/2.5/tenders/${tender.id}/awards/${data.awards[0].id}`;
    const uploaded = await uploadDocument(server, `${award}/documents`, owner);
    t.match(uploaded.body.data, { author: 'tender_owner', documentOf: 'tender', confidentiality: 'public' });
    const put = await uploadDocument(server, `${award}/documents/${uploaded.body.data.id}`, { ...owner, method: 'PUT' });
    t.equal(put.body.data.author, 'tender_owner', 'a new version keeps it');
    await relatedItemChecked(t, award, owner, data);
    const cancellation = await server.request('POST', `/api/2.5/tenders/${tender.id}/cancellations`, {
      ...owner,
      body: { data: { reason: 'Причина', reasonType: 'noDemand' } },
    });
    const cancellationPath = `/api/2.5/tenders/${tender.id}/cancellations/${cancellation.body.data.id}`;
    const cancellationDoc = await uploadDocument(server, `${cancellationPath}/documents`, owner);
    t.notOk(cancellationDoc.body.data.author, 'a cancellation document records no author');
    await relatedItemChecked(t, cancellationPath, owner, data);
  },
);

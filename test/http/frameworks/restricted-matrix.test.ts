import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { aTenderer, activeFramework, activeSubmission, decideQualification, err, uploadDocument } from '../../fixtures/frameworks';

const H = 'Приховано';
const READERS = ['', 'broker', 'broker1', 'broker2', 'brokerr'] as const;
type Reader = (typeof READERS)[number];

/** Spec access table: the procuring entity's broker (`broker`) sees all, a participant its own, `r` brokers everything. */
const WHOLE: Record<string, Reader[]> = {
  submission: ['broker', 'broker1', 'brokerr'],
  qualification: ['broker', 'broker1', 'brokerr'],
  agreement: ['broker', 'brokerr'],
};

const HIDDEN_TENDERER = {
  ...aTenderer('00137256'),
  address: { countryName: H, streetAddress: H, locality: H, region: H, postalCode: H },
  contactPoint: { name: H, telephone: H, email: H },
};

async function world(server: TestServer) {
  const framework = await activeFramework(server, { restricted: true });
  const s1 = await activeSubmission(server, framework.id, { key: 'broker1', tenderer: aTenderer('00137256') });
  const s2 = await activeSubmission(server, framework.id, { key: 'broker2', tenderer: aTenderer('00137257') });
  const sDoc = await uploadDocument(server, `/api/2.5/submissions/${s1.id}/documents`, {
    key: 'broker1',
    token: s1.token,
    content: 'submission bytes',
  });
  const qDoc = await uploadDocument(server, `/api/2.5/qualifications/${s1.qualificationID}/documents`, {
    key: 'broker',
    token: framework.token,
    filename: 'sign.p7s',
    content: 'signature',
    type: 'application/pkcs7-signature',
  });
  await decideQualification(server, framework, s1.qualificationID, 'active');
  const agreementId = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data.agreementID;
  return { framework, s1, s2, sDoc: sDoc.body.data, qDoc: qDoc.body.data, agreementId };
}

for (const mode of ['hidden', 'forbidden'] as const) {
  t.test(`restricted matrix, variant ${mode === 'hidden' ? 'A (hidden)' : 'B (forbidden)'}`, async (t) => {
    const server = await startTestServer({ now: new Date('2027-01-01T00:00:00+02:00'), env: { RESTRICTED_MODE: mode } });
    t.teardown(() => server.close());
    const w = await world(server);
    const as = (key: Reader, path: string) => server.request('GET', path, { key });
    const whole = {
      submission: (await as('broker1', `/api/2.5/submissions/${w.s1.id}`)).body.data,
      qualification: (await as('broker', `/api/2.5/qualifications/${w.s1.qualificationID}`)).body.data,
      agreement: (await as('broker', `/api/2.5/agreements/${w.agreementId}`)).body.data,
    };
    t.same(whole.submission.tenderers, [aTenderer('00137256')], 'the owner sees its submission whole');
    t.equal(whole.submission.documents[0].url, w.sDoc.url);
    const hiddenDoc = (doc: any) => ({ ...doc, title: H, url: H });
    const hidden = {
      submission: { ...whole.submission, tenderers: [HIDDEN_TENDERER], documents: whole.submission.documents.map(hiddenDoc) },
      qualification: { ...whole.qualification, documents: whole.qualification.documents.map(hiddenDoc) },
      agreement: {
        ...whole.agreement,
        contracts: whole.agreement.contracts.map((c: any) => ({ ...c, suppliers: [HIDDEN_TENDERER] })),
      },
    };
    const paths = {
      submission: `/api/2.5/submissions/${w.s1.id}`,
      qualification: `/api/2.5/qualifications/${w.s1.qualificationID}`,
      agreement: `/api/2.5/agreements/${w.agreementId}`,
    };
    const feeds = {
      submission: '/api/2.5/submissions?opt_fields=frameworkID,status,tenderers,documents',
      qualification: '/api/2.5/qualifications?opt_fields=frameworkID,status,documents',
      agreement: '/api/2.5/agreements?opt_fields=status,procuringEntity',
    };
    const pick = (data: any, fields: string[]) => Object.fromEntries(fields.filter((f) => f in data).map((f) => [f, data[f]]));
    const feedFields = {
      submission: ['id', 'dateModified', 'frameworkID', 'status', 'tenderers', 'documents'],
      qualification: ['id', 'dateModified', 'frameworkID', 'status', 'documents'],
      agreement: ['id', 'dateModified', 'status', 'procuringEntity'],
    };
    const reduced = (name: string, data: any) =>
      name === 'agreement'
        ? { id: data.id, dateModified: data.dateModified, restricted: true }
        : { id: data.id, dateModified: data.dateModified, frameworkID: data.frameworkID, restricted: true };

    for (const name of ['submission', 'qualification', 'agreement'] as const) {
      for (const reader of READERS) {
        const who = reader || 'anonymous';
        const full = WHOLE[name].includes(reader);
        const single = await as(reader, paths[name]);
        // On MongoDB a reader outside the writer's session sees a change once every node's feed floor is past it
        // (one heartbeat, docs/mongodb.md §Feed ordering on MongoDB): ask again until it is listed.
        let entry: any;
        for (let tries = 0; entry === undefined && tries < 50; tries++) {
          if (tries) await new Promise((resolve) => setTimeout(resolve, 50));
          entry = (await as(reader, feeds[name])).body.data.find((e: any) => e.id === whole[name].id);
        }
        if (full) {
          t.same([single.status, single.body.data], [200, whole[name]], `${name} × ${who}: whole`);
          t.same(entry, pick(whole[name], feedFields[name]), `${name} feed × ${who}: whole`);
        } else if (mode === 'hidden') {
          t.same([single.status, single.body.data], [200, hidden[name]], `${name} × ${who}: hidden view`);
          const expected = reader ? reduced(name, whole[name]) : pick(hidden[name], feedFields[name]);
          t.same(entry, expected, `${name} feed × ${who}: ${reader ? 'reduced' : 'hidden'}`);
        } else {
          t.same([single.status, single.body], [403, err('body', 'data', `Access restricted for ${name} object`)], `${name} × ${who}: 403`);
          t.same(entry, reduced(name, whole[name]), `${name} feed × ${who}: reduced`);
        }
      }
    }

    for (const [name, doc, base] of [
      ['submission', w.sDoc, `/api/2.5/submissions/${w.s1.id}`],
      ['qualification', w.qDoc, `/api/2.5/qualifications/${w.s1.qualificationID}`],
    ] as const) {
      for (const reader of READERS) {
        const who = reader || 'anonymous';
        const single = await as(reader, `${base}/documents/${doc.id}`);
        const download = await server.request('GET', new URL(doc.url).pathname + new URL(doc.url).search, { key: reader });
        if (WHOLE[name].includes(reader)) {
          t.same([single.status, single.body.data], [200, doc], `${name} document × ${who}: whole`);
          t.equal(download.status, 200, `${name} download × ${who}`);
        } else if (mode === 'hidden') {
          t.same(single.body.data, { ...doc, title: H, url: H }, `${name} document × ${who}: title and url hidden`);
          t.equal(download.status, 200, `${name} download × ${who}: the key opens it`);
        } else {
          t.same(
            [single.status, single.body],
            [403, err('body', 'data', `Access restricted for ${name} object`)],
            `${name} document × ${who}: 403`,
          );
          t.same(
            [download.status, download.body],
            [403, err('body', 'data', `Access restricted for ${name} object`)],
            `${name} download × ${who}: 403`,
          );
        }
      }
    }
  });
}

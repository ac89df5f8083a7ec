import t from 'tap';
import { type ObjectDoc } from '../../../src/domain/core/objects';
import { updateOf } from '../../../src/domain/save-rules';
import { startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCompetitiveOrderingTender,
  aLot,
  anItem,
  competitiveOrderingConfig,
  createTender,
  insertAgreement,
  supplier,
} from '../../fixtures/tenders';
import { apiJson } from '../../../src/store/api-json';

const HIDDEN = 'Приховано';
const HIDDEN_DATE = '1111-11-11T00:00:00+02:00';
const LOT = 'd'.repeat(32);

let server: TestServer;
let id: string;
t.before(async () => {
  server = await startTestServer();
  const agreementId = await insertAgreement(server, { restricted: true });
  const tender = await createTender(
    server,
    aCompetitiveOrderingTender(agreementId, { lots: [aLot({ id: LOT })], items: [anItem({ relatedLot: LOT })] }),
    competitiveOrderingConfig({ restricted: true }),
  );
  id = tender.id;
  const res = await server.request('PATCH', `/api/2.5/tenders/${id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.tendering' } },
  });
  if (res.status !== 200) throw new Error(res.text);
  // Bids, awards, contracts, complaints and questions put in as stored, in a status where bids are public.
  const session = server.store.session();
  const stored = (await session.get('tenders', id))!;
  const doc = stored.doc as ObjectDoc;
  const org = {
    ...supplier('Учасник', '12345678'),
    name_en: 'Bidder',
    additionalContactPoints: [{ name: 'Контакт', email: 'c@example.com' }],
  };
  const author = { ...supplier('Автор', '87654321') };
  const data = {
    ...doc.data,
    status: 'active.qualification',
    bids: [
      {
        id: 'b'.repeat(32),
        tenderers: [org],
        participationUrl: 'https://auction/1',
        subcontractingDetails: 'субпідряд',
        lotValues: [{ participationUrl: 'https://auction/lot', subcontractingDetails: 'x' }],
        documents: [{ title: 'bid.pdf', url: 'https://ds/1', hash: 'md5:' + '0'.repeat(32), confidentialityRationale: 'причина' }],
      },
    ],
    awards: [{ id: 'a'.repeat(32), suppliers: [org], documents: [{ title: 'award.pdf', url: 'https://ds/2', format: 'application/pdf' }] }],
    contracts: [
      {
        id: 'c'.repeat(32),
        suppliers: [org],
        items: [{ ...anItem(), deliveryLocation: { latitude: 50.45, longitude: 30.52 } }],
        documents: [{ title: 'c.pdf', url: 'https://ds/3' }],
      },
    ],
    complaints: [
      {
        title: 'Скарга',
        description: 'Опис',
        resolution: 'Рішення',
        author,
        documents: [{ title: 'sk.pdf', url: 'https://ds/4' }],
        posts: [{ title: 'Пост', description: 'Текст', documents: [{ title: 'p.pdf', url: 'https://ds/5' }] }],
        objections: [
          {
            title: 'Заперечення',
            description: 'о',
            classification: { description: 'к', id: 'x' },
            requestedRemedies: [{ type: 'тип', description: 'в' }],
            arguments: [{ description: 'аргумент', evidences: [{ title: 'доказ', description: 'д' }] }],
          },
        ],
      },
    ],
    questions: [{ title: 'Питання', description: 'Текст', answer: 'Відповідь', author }],
  };
  await session.commit([updateOf(stored, { ...doc, data }, ['bids', 'awards', 'contracts', 'complaints', 'questions'])]);
});
t.teardown(() => server.close());

const read = async (key?: string) => (await server.request('GET', `/api/2.5/tenders/${id}`, { key })).body;

t.test('anonymous reader: every path of the tender hiding table is replaced', async (t) => {
  const { data, config } = await read();
  t.equal(config.restricted, true);
  t.match(data.items[0], {
    deliveryDate: { startDate: HIDDEN_DATE, endDate: HIDDEN_DATE },
    deliveryAddress: { streetAddress: HIDDEN, locality: HIDDEN, region: HIDDEN, postalCode: HIDDEN, countryName: HIDDEN },
    description: 'футляри до державних нагород',
  });
  const bidder = data.bids[0].tenderers[0];
  t.match(bidder, {
    name: HIDDEN,
    name_en: 'Hidden',
    identifier: { id: HIDDEN, legalName: HIDDEN, scheme: 'UA-EDR' },
    address: { streetAddress: HIDDEN, countryName: HIDDEN },
    contactPoint: { name: HIDDEN, email: HIDDEN, telephone: HIDDEN },
    additionalContactPoints: [{ name: HIDDEN, email: HIDDEN }],
    scale: HIDDEN,
  });
  t.match(data.bids[0], {
    participationUrl: HIDDEN,
    subcontractingDetails: HIDDEN,
    lotValues: [{ participationUrl: HIDDEN, subcontractingDetails: HIDDEN }],
  });
  t.match(data.bids[0].documents[0], { title: HIDDEN, url: HIDDEN, confidentialityRationale: HIDDEN, hash: 'md5:' + '0'.repeat(32) });
  t.match(data.awards[0], {
    suppliers: [{ name: HIDDEN, identifier: { id: HIDDEN } }],
    documents: [{ title: HIDDEN, url: HIDDEN, format: 'application/pdf' }],
  });
  t.match(data.contracts[0], {
    suppliers: [{ name: HIDDEN }],
    items: [
      { deliveryDate: { startDate: HIDDEN_DATE }, deliveryAddress: { locality: HIDDEN }, deliveryLocation: { latitude: 0, longitude: 0 } },
    ],
    documents: [{ title: HIDDEN, url: HIDDEN }],
  });
  t.match(data.complaints[0], {
    title: HIDDEN,
    description: HIDDEN,
    resolution: HIDDEN,
    author: {
      name: HIDDEN,
      identifier: { id: HIDDEN, legalName: HIDDEN },
      address: { streetAddress: HIDDEN },
      contactPoint: { email: HIDDEN },
    },
    documents: [{ title: HIDDEN, url: HIDDEN }],
    posts: [{ title: HIDDEN, description: HIDDEN, documents: [{ title: HIDDEN, url: HIDDEN }] }],
    objections: [
      {
        title: HIDDEN,
        description: HIDDEN,
        classification: { description: HIDDEN, id: 'x' },
        requestedRemedies: [{ type: HIDDEN, description: HIDDEN }],
        arguments: [{ description: HIDDEN, evidences: [{ title: HIDDEN, description: HIDDEN }] }],
      },
    ],
  });
  t.match(data.questions[0], {
    title: HIDDEN,
    description: HIDDEN,
    answer: HIDDEN,
    author: { name: HIDDEN, contactPoint: { telephone: HIDDEN } },
  });
  t.equal(data.procuringEntity.name, 'Державне управління справами', 'the procuring entity stays visible');
});

t.test('the owning platform sees the tender whole', async (t) => {
  const { data } = await read('broker');
  t.equal(data.items[0].deliveryDate.startDate, '2026-11-01T00:00:00+02:00');
  t.equal(data.bids[0].tenderers[0].name, 'Учасник');
  t.equal(data.questions[0].answer, 'Відповідь');
});

t.test('another broker without the r level gets the hidden view', async (t) => {
  const { data } = await read('broker1');
  t.equal(data.items[0].deliveryDate.startDate, HIDDEN_DATE);
  t.equal(data.bids[0].tenderers[0].name, HIDDEN);
});

t.test('a broker with the r level and a system role see the tender whole', async (t) => {
  t.equal((await read('brokerr')).data.bids[0].tenderers[0].name, 'Учасник');
  t.equal((await read('chronograph')).data.items[0].deliveryAddress.locality, 'м. Київ');
});

t.test('feed with opt_fields=procuringEntity: anonymous and owner get the same entry', async (t) => {
  const anon = await server.request('GET', '/api/2.5/tenders?opt_fields=procuringEntity');
  const owner = await server.request('GET', '/api/2.5/tenders?opt_fields=procuringEntity', { key: 'broker' });
  const pick = (body: any) => body.data.find((e: { id: string }) => e.id === id);
  t.same(pick(anon.body), pick(owner.body));
  t.equal(pick(anon.body).procuringEntity.name, 'Державне управління справами');
});

t.test('feed masks before picking fields: contracts hidden for anonymous, whole for the owner', async (t) => {
  const pick = (body: any) => body.data.find((e: { id: string }) => e.id === id);
  const anon = pick((await server.request('GET', '/api/2.5/tenders?opt_fields=contracts')).body);
  const owner = pick((await server.request('GET', '/api/2.5/tenders?opt_fields=contracts', { key: 'broker' })).body);
  t.equal(anon.contracts[0].suppliers[0].name, HIDDEN);
  t.equal(owner.contracts[0].suppliers[0].name, 'Учасник');
  t.notOk('items' in anon, 'items are not an allowed feed field');
});

t.test('an unrestricted tender is whole for anonymous readers', async (t) => {
  const agreementId = await insertAgreement(server);
  const open = await createTender(server, aCompetitiveOrderingTender(agreementId), competitiveOrderingConfig());
  const { data, config } = (await server.request('GET', `/api/2.5/tenders/${open.id}`)).body;
  t.equal(config.restricted, false);
  t.equal(data.items[0].deliveryAddress.locality, 'м. Київ');
});

t.test('a feed page is compact JSON, or indented by 4 with opt_pretty, its masked and whole entries alike', async (t) => {
  const lotted = { lots: [aLot({ id: LOT })], items: [anItem({ relatedLot: LOT })] };
  const open = await createTender(server, aCompetitiveOrderingTender(await insertAgreement(server), lotted), competitiveOrderingConfig());
  const activated = await server.request('PATCH', `/api/2.5/tenders/${open.id}`, {
    key: 'broker',
    token: open.token,
    body: { data: { status: 'active.tendering' } },
  });
  t.equal(activated.status, 200);
  const path = '/api/2.5/tenders?opt_fields=status,contracts,procuringEntity';
  const page = await server.request('GET', path);
  t.equal(page.headers.get('content-type'), 'application/json; charset=utf-8');
  t.equal(page.text, apiJson(page.body), 'compact');
  const entry = (tenderId: string) => page.body.data.find((e: { id: string }) => e.id === tenderId);
  t.same(Object.keys(entry(id)), ['id', 'dateModified', 'contracts', 'procuringEntity', 'status'], 'masked entry');
  t.equal(entry(id).contracts[0].suppliers[0].name, HIDDEN);
  t.same(Object.keys(entry(open.id)), ['id', 'dateModified', 'procuringEntity', 'status'], 'whole entry');
  const pretty = await server.request('GET', `${path}&opt_pretty=1`);
  t.equal(pretty.text, apiJson(page.body, 4));
});

import { uploadDocument } from '../../test/fixtures/frameworks';
import { startTestServer, type Reply, type TestServer } from '../../test/fixtures/server';
import {
  activateDraft,
  aBid,
  answersTo,
  aCompetitiveOrderingTender,
  aLot,
  anItem,
  aTender,
  belowThresholdConfig,
  competitiveOrderingConfig,
  createTender,
  insertAgreement,
  runChronograph,
  TENDERING_START,
  type Created,
} from '../../test/fixtures/tenders';

const API = '/api/2.5';

/** Every feed of the API (transfers are kept, but listed in none). */
const FEEDS = ['tenders', 'frameworks', 'submissions', 'qualifications', 'agreements', 'contracts', 'plans'];

/** Every reader of a tender but the bidder acting: nobody, a stranger, the tender's owner, other brokers. */
const READERS = [
  { name: 'anonymous' },
  { name: 'unknown key', key: 'no-such-key' },
  { name: 'tender owner', key: 'broker' },
  { name: 'other broker', key: 'broker3' },
  { name: 'r broker', key: 'brokerr' },
] as const;

/** The broker that bids, and the one whose bid is withdrawn (another bidder): readers in their own right too. */
const BIDDER = 'broker1';
const SECOND_BIDDER = 'broker2';

/** A feed's every way of being read: each mode, and for tenders the fields a bid could move. */
const FEED_VARIANTS = (kind: string): string[] => {
  const base = ['', 'mode=test', 'mode=_all_'];
  if (kind !== 'tenders') return base;
  return [...base, 'opt_fields=status,bids,numberOfBids,dateModified,next_check,tenderPeriod,procuringEntity,lots'];
};

/** The tender's own reads (besides its view) that a bid could change. */
const TENDER_READS = ['', '/lots', '/questions', '/awards', '/contracts', '/cancellations', '/documents', '/criteria', '/bids'];

export interface BidActivityResult {
  /** Bid actions made (each kind on each tender). */
  actions: number;
  /** Reads compared with the same read before the actions. */
  compared: number;
  /** Reads whose body changed. */
  changed: number;
  /** Reads from the offset a crawler held before the actions that listed anything. */
  listedAgain: number;
  /** Bid requests that did not succeed, and 5xx answers. */
  failed: number;
  examples: string[];
}

interface Tenders {
  open: Created;
  test: Created;
  restricted: Created;
}

/** Three tenders in `active.tendering`: a belowThreshold one, one in `mode: test`, a restricted competitiveOrdering one. */
async function tendersInTendering(server: TestServer): Promise<Tenders> {
  const lot = () => {
    const id = 'a'.repeat(31) + Math.floor(Math.random() * 10);
    return { lots: [aLot({ id })], items: [anItem({ relatedLot: id })], value: { amount: 500, currency: 'UAH' } };
  };
  const open = await createTender(server, aTender(lot()), belowThresholdConfig());
  const test = await createTender(server, aTender({ ...lot(), mode: 'test' }), belowThresholdConfig());
  const agreement = await insertAgreement(server, { restricted: true });
  const restricted = await createTender(
    server,
    aCompetitiveOrderingTender(agreement, lot()),
    competitiveOrderingConfig({ restricted: true }),
  );
  await activateDraft(server, open, 'active.enquiries');
  await activateDraft(server, test, 'active.enquiries');
  await activateDraft(server, restricted, 'active.tendering');
  server.clock.set(new Date(TENDERING_START.getTime() + 3_600_000));
  for (const { id } of [open, test]) await runChronograph(server, id);
  const reread = async (t: Created) => ({ ...t, data: (await server.request('GET', `${API}/tenders/${t.id}`)).body.data });
  return { open: await reread(open), test: await reread(test), restricted: await reread(restricted) };
}

/** The bidders read too: what they see of the tender and its feeds is what everybody sees. */
const BIDDERS = [
  { name: 'bidder', key: BIDDER },
  { name: 'second bidder', key: SECOND_BIDDER },
];

/** Where a reader's crawl of a feed ended: a crawler holding it must find nothing new after bid actions. */
interface HeldOffset {
  read: string;
  path: string;
  key?: string;
  offset: unknown;
}

/** A whole crawl of one feed as one reader: every page's body, and the offset it ends at. */
async function crawl(server: TestServer, path: string, key?: string): Promise<{ bodies: string[]; offset: unknown }> {
  const bodies: string[] = [];
  let next = path;
  for (let page = 0; page < 50; page++) {
    const res = await server.request('GET', next, { key, jar: undefined });
    bodies.push(`${res.status} ${res.text}`);
    if (res.status !== 200 || res.body.data.length === 0) return { bodies, offset: res.body?.next_page?.offset };
    next = res.body.next_page.path;
  }
  throw new Error(`${path}: no end after 50 pages`);
}

/** Every feed and tender read as every reader, keyed by what was read; and each ascending feed's end offset. */
async function snapshot(server: TestServer, tenders: Tenders): Promise<{ reads: Map<string, string>; ends: HeldOffset[] }> {
  const reads = new Map<string, string>();
  const ends: HeldOffset[] = [];
  await Promise.all(
    [...READERS, ...BIDDERS].map(async ({ name, ...reader }) => {
      const key = 'key' in reader ? reader.key : undefined;
      for (const kind of FEEDS) {
        for (const variant of FEED_VARIANTS(kind)) {
          for (const descending of [false, true]) {
            const query = [variant, descending ? 'descending=1' : ''].filter(Boolean).join('&');
            const path = `${API}/${kind}${query ? `?${query}` : ''}`;
            const { bodies, offset } = await crawl(server, path, key);
            reads.set(`${name} ${path}`, bodies.join('\n'));
            if (!descending) ends.push({ read: `${name} ${path}`, path, key, offset });
          }
        }
      }
      for (const tender of Object.values(tenders)) {
        for (const read of TENDER_READS) {
          const res = await server.request('GET', `${API}/tenders/${tender.id}${read}`, { key, jar: undefined });
          reads.set(`${name} tender ${tender.id}${read}`, `${res.status} ${res.text}`);
        }
      }
    }),
  );
  return { reads, ends };
}

/** One kind of bid action, made on a tender: the reply that must be a success. */
type BidAction = (server: TestServer, tender: Created, bids: Map<string, { id: string; token: string; docId?: string }>) => Promise<Reply>;

const bidPath = (tender: Created, bid: { id: string }) => `${API}/tenders/${tender.id}/bids/${bid.id}`;

/** Every kind of write a bidder makes while bids are sealed (docs/tenders.md §Bids). */
const ACTIONS: [string, BidAction][] = [
  [
    'create a draft bid',
    async (server, tender, bids) => {
      const res = await server.request('POST', `${API}/tenders/${tender.id}/bids`, { key: BIDDER, body: { data: aBid(tender, 450, 1) } });
      if (res.status === 201) bids.set(tender.id, { id: res.body.data.id, token: res.body.access.token });
      return res;
    },
  ],
  [
    'submit it with a new amount (PATCH)',
    (server, tender, bids) => {
      const bid = bids.get(tender.id)!;
      const { lotValues } = aBid(tender, 440, 1) as { lotValues: unknown };
      const data = { status: 'pending', lotValues };
      return server.request('PATCH', bidPath(tender, bid), { key: BIDDER, token: bid.token, body: { data } });
    },
  ],
  [
    'answer the criteria again (PATCH requirementResponses)',
    (server, tender, bids) => {
      const bid = bids.get(tender.id)!;
      const data = { requirementResponses: answersTo(tender.data.criteria) };
      return server.request('PATCH', bidPath(tender, bid), { key: BIDDER, token: bid.token, body: { data } });
    },
  ],
  [
    'upload a bid document',
    async (server, tender, bids) => {
      const bid = bids.get(tender.id)!;
      const res = await uploadDocument(server, `${bidPath(tender, bid)}/documents`, { key: BIDDER, token: bid.token });
      if (res.status === 201) bid.docId = res.body.data.id;
      return res;
    },
  ],
  [
    'upload a new version of it (PUT)',
    (server, tender, bids) => {
      const bid = bids.get(tender.id)!;
      const path = `${bidPath(tender, bid)}/documents/${bid.docId}`;
      return uploadDocument(server, path, { key: BIDDER, token: bid.token, method: 'PUT', content: 'second version' });
    },
  ],
  [
    "change the document's title (PATCH)",
    (server, tender, bids) => {
      const bid = bids.get(tender.id)!;
      const path = `${bidPath(tender, bid)}/documents/${bid.docId}`;
      return server.request('PATCH', path, { key: BIDDER, token: bid.token, body: { data: { title: 'нова назва.doc' } } });
    },
  ],
  [
    'another bidder submits a bid',
    async (server, tender, bids) => {
      const data = aBid(tender, 430, 2, { status: 'pending' });
      const res = await server.request('POST', `${API}/tenders/${tender.id}/bids`, { key: SECOND_BIDDER, body: { data } });
      if (res.status === 201) bids.set(`${tender.id} second`, { id: res.body.data.id, token: res.body.access.token });
      return res;
    },
  ],
  [
    'the other bidder withdraws it (DELETE)',
    (server, tender, bids) => {
      const bid = bids.get(`${tender.id} second`)!;
      return server.request('DELETE', bidPath(tender, bid), { key: SECOND_BIDDER, token: bid.token });
    },
  ],
];

/**
 * The bid-activity class of the leak suite (docs/tenders.md §Bids, docs/architecture.md §Hidden changes): every feed
 * (every collection, ascending and descending, every mode, the fields a bid could move) and every read of the
 * tenders, as every reader, before and after each kind of bid action on three tenders in `active.tendering`
 * (belowThreshold, `mode: test`, restricted competitiveOrdering), compared byte for byte. Only the bid's own
 * reads may change (for the bidder), and they are not among these.
 */
export async function runBidActivity(): Promise<BidActivityResult> {
  const server = await startTestServer();
  const result: BidActivityResult = { actions: 0, compared: 0, changed: 0, listedAgain: 0, failed: 0, examples: [] };
  const note = (example: string) => {
    if (result.examples.length < 20) result.examples.push(example);
  };
  try {
    const tenders = await tendersInTendering(server);
    const before = await snapshot(server, tenders);
    const bids = new Map<string, { id: string; token: string; docId?: string }>();
    for (const [name, action] of ACTIONS) {
      for (const tender of Object.values(tenders)) {
        const res = await action(server, tender, bids);
        result.actions++;
        if (res.status >= 300) {
          result.failed++;
          note(`${name} on ${tender.id}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
      const after = await snapshot(server, tenders);
      for (const [read, body] of before.reads) {
        result.compared++;
        if (after.reads.get(read) !== body) {
          result.changed++;
          note(`after "${name}": ${read} changed`);
        }
        if (/^5\d\d /.test(body)) result.failed++;
      }
      for (const { read, path, key, offset } of before.ends) {
        const res = await server.request('GET', `${path}${path.includes('?') ? '&' : '?'}offset=${String(offset)}`, {
          key,
          jar: undefined,
        });
        if (res.status !== 200 || res.body.data.length > 0) {
          result.listedAgain++;
          note(`after "${name}": ${read} from the offset held lists ${res.text.slice(0, 200)}`);
        }
      }
    }
  } finally {
    await server.close();
  }
  return result;
}

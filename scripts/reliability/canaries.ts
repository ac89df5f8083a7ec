import pino from 'pino';
import { Writable } from 'node:stream';
import { type ObjectDoc } from '../../src/domain/core/objects';
import { updateOf } from '../../src/domain/save-rules';
import type { StoredDoc, Kind } from '../../src/store/port';
import {
  activeFramework,
  activeSubmission,
  aQuestion,
  decideQualification,
  uploadDocument,
  type Created,
} from '../../test/fixtures/frameworks';
import {
  aBid,
  aCompetitiveOrderingTender,
  aContract,
  aLot,
  anItem,
  CO_TENDERING_END,
  competitiveOrderingConfig,
  createTender,
  insertAgreement,
  runChronograph,
} from '../../test/fixtures/tenders';
import { playAuction } from '../auction/play-auction';
import { newId } from '../../src/domain/core/ids';
import { startTestServer, type TestServer } from '../../test/fixtures/server';
import {
  AGREEMENT_ROWS,
  BID_RESPONSE_ROWS,
  CONTRACT_ROWS,
  QUALIFICATION_ROWS,
  QUESTION_ROWS,
  SUBMISSION_ROWS,
  TENDER_ROWS,
  expandRows,
} from '../../test/reliability/spec-hiding-tables';

const API = '/api/2.5';

/** Every kind of reader the access rules distinguish, and the ways of being nobody. */
const READERS = [
  { name: 'anonymous' },
  { name: 'anonymous with a wrong token', token: '0'.repeat(32) },
  { name: 'unknown key', key: 'no-such-key' },
  { name: 'owner broker (procuring entity, tender and contract owner)', key: 'broker' },
  { name: 'participant broker (submission owner, question asker)', key: 'broker1' },
  { name: 'other broker', key: 'broker2' },
  { name: 'other broker with a wrong token', key: 'broker2', token: 'f'.repeat(32) },
  { name: 'r broker', key: 'brokerr' },
  { name: 'contracting system', key: 'contracting' },
] as const;
type ReaderKey = string | undefined;

/** The objects one run makes: a restricted framework with its derivatives, a restricted tender and its contract. */
interface World {
  framework: Created;
  submission: Created & { qualificationID: string };
  agreementId: string;
  questionId: string;
  tender: { id: string; token: string };
  contractId: string;
  /**
   * A restricted tender past its auction, with bids made through the API (its bids are public, hence hidden), its
   * winner's award active with a document, and that award's contract.
   */
  bidding: { id: string; awardContractId: string };
  tokens: string[];
}

/**
 * One restricted kind, as data (issue 17, class 3): where its canaries go, which spec rows name the hidden fields,
 * who may read it whole, and every path it can be read by.
 */
export interface RestrictedKind {
  name: string;
  /** The spec's rows for this kind (test/reliability/spec-hiding-tables.ts). */
  rows: string[];
  /** The stored object the canaries go into, and where in it: its `data`, or each element of a list beside it. */
  target(w: World): { kind: Kind; id: string; inList?: string };
  /** Readers that see it whole (docs/masking.md §Who sees what). */
  fullAccess: ReaderKey[];
  /** Single reads (object, sub-resources, documents): a full-access reader finds every canary in one of them. */
  reads(w: World, data: StoredDoc): string[];
}

/** The download addresses of the documents of `holders` (bids, awards), as paths with their key. */
const downloadReads = (holders: StoredDoc[]) =>
  holders.flatMap((h) => ((h.documents ?? []) as StoredDoc[]).map((d) => new URL(d.url)).map((u) => `${u.pathname}${u.search}`));

/** A holder's document reads: the list, every version (`?all`), and each document with its `previousVersions`. */
const documentReads = (base: string, data: StoredDoc) => [
  `${base}/documents`,
  `${base}/documents?all=1`,
  ...((data.documents ?? []) as StoredDoc[]).filter((d) => d.id).map((d) => `${base}/documents/${d.id}`),
];

const KINDS: RestrictedKind[] = [
  {
    name: 'submission',
    rows: SUBMISSION_ROWS,
    target: (w) => ({ kind: 'submissions', id: w.submission.id }),
    fullAccess: ['broker', 'broker1', 'brokerr', 'contracting'],
    reads: (w, data) => [`${API}/submissions/${w.submission.id}`, ...documentReads(`${API}/submissions/${w.submission.id}`, data)],
  },
  {
    name: 'qualification',
    rows: QUALIFICATION_ROWS,
    target: (w) => ({ kind: 'qualifications', id: w.submission.qualificationID }),
    fullAccess: ['broker', 'broker1', 'brokerr', 'contracting'],
    reads: (w, data) => [
      `${API}/qualifications/${w.submission.qualificationID}`,
      ...documentReads(`${API}/qualifications/${w.submission.qualificationID}`, data),
    ],
  },
  {
    name: 'agreement',
    rows: AGREEMENT_ROWS,
    target: (w) => ({ kind: 'agreements', id: w.agreementId }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => {
      const base = `${API}/agreements/${w.agreementId}`;
      const contracts = (data.contracts ?? []) as StoredDoc[];
      return [
        base,
        `${base}/contracts`,
        ...contracts.flatMap((c) => [`${base}/contracts/${c.id}`, `${base}/contracts/${c.id}/milestones`]),
      ];
    },
  },
  {
    name: 'framework question',
    rows: QUESTION_ROWS,
    target: (w) => ({ kind: 'frameworks', id: w.framework.id, inList: 'questions' }),
    fullAccess: ['broker', 'broker1', 'brokerr', 'contracting'],
    reads: (w) => [`${API}/frameworks/${w.framework.id}/questions`, `${API}/frameworks/${w.framework.id}/questions/${w.questionId}`],
  },
  {
    name: 'tender',
    rows: TENDER_ROWS,
    target: (w) => ({ kind: 'tenders', id: w.tender.id }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => {
      const base = `${API}/tenders/${w.tender.id}`;
      const questions = ((data.questions ?? []) as StoredDoc[]).filter((q) => q.id);
      return [
        base,
        `${base}/lots`,
        `${base}/questions`,
        ...questions.map((q) => `${base}/questions/${q.id}`),
        ...documentReads(base, data),
      ];
    },
  },
  {
    name: 'bid',
    rows: TENDER_ROWS.filter((row) => row.startsWith('$.bids')),
    target: (w) => ({ kind: 'tenders', id: w.bidding.id }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => {
      const base = `${API}/tenders/${w.bidding.id}`;
      const bids = (data.bids ?? []) as StoredDoc[];
      return [
        base,
        `${base}/bids`,
        ...bids.flatMap((b) => [`${base}/bids/${b.id}`, ...documentReads(`${base}/bids/${b.id}`, b)]),
        ...downloadReads(bids),
      ];
    },
  },
  {
    name: 'bid requirement responses',
    rows: BID_RESPONSE_ROWS,
    target: (w) => ({ kind: 'tenders', id: w.bidding.id }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => {
      const base = `${API}/tenders/${w.bidding.id}`;
      return [base, `${base}/bids`, ...((data.bids ?? []) as StoredDoc[]).map((b) => `${base}/bids/${b.id}`)];
    },
  },
  {
    name: 'award',
    rows: TENDER_ROWS.filter((row) => /^\$\.(awards|\{awards,contracts\})/.test(row)),
    target: (w) => ({ kind: 'tenders', id: w.bidding.id }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => {
      const base = `${API}/tenders/${w.bidding.id}`;
      const awards = (data.awards ?? []) as StoredDoc[];
      return [
        base,
        `${base}/awards`,
        `${base}/contracts`,
        ...awards.flatMap((a) => [`${base}/awards/${a.id}`, ...documentReads(`${base}/awards/${a.id}`, a)]),
        ...downloadReads(awards),
      ];
    },
  },
  {
    name: 'tender contract',
    rows: TENDER_ROWS.filter((row) => row.startsWith('$.contracts')),
    target: (w) => ({ kind: 'tenders', id: w.bidding.id }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => {
      const base = `${API}/tenders/${w.bidding.id}`;
      return [base, `${base}/contracts`, ...((data.contracts ?? []) as StoredDoc[]).map((c) => `${base}/contracts/${c.id}`)];
    },
  },
  {
    name: 'contract of an award',
    rows: CONTRACT_ROWS,
    target: (w) => ({ kind: 'contracts', id: w.bidding.awardContractId }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => [
      `${API}/contracts/${w.bidding.awardContractId}`,
      ...documentReads(`${API}/contracts/${w.bidding.awardContractId}`, data),
    ],
  },
  {
    name: 'contract',
    rows: CONTRACT_ROWS,
    target: (w) => ({ kind: 'contracts', id: w.contractId }),
    fullAccess: ['broker', 'brokerr', 'contracting'],
    reads: (w, data) => {
      const base = `${API}/contracts/${w.contractId}`;
      const changes = ((data.changes ?? []) as StoredDoc[]).filter((c) => c.id);
      return [base, `${base}/changes`, ...changes.map((c) => `${base}/changes/${c.id}`), ...documentReads(base, data)];
    },
  },
];

interface Planted {
  kind: RestrictedKind;
  canaries: string[];
  reads: string[];
  downloads: string[];
}

export interface CanaryResult {
  mode: 'hidden' | 'forbidden';
  canaries: number;
  requests: number;
  /** (canary, reader) pairs where a reader who must not see a canary got it somewhere. */
  leaked: number;
  /** (canary, reader) pairs where a reader with full access did not get the canary in the kind's single reads. */
  missing: number;
  /** Owner or transfer tokens found in any view, feed entry or log line. */
  tokensLeaked: number;
  /** Reads answered 5xx. */
  failed: number;
  examples: string[];
}

/**
 * Plants a unique canary in every field the spec's hiding tables name (expanded by the test's own transcription,
 * not by the product's tables) for every restricted kind, then reads every object, every version of it, sub-resource,
 * document, download and feed (no opt_fields, each top-level field alone, all at once) as every kind of reader.
 */
export async function runCanaries(mode: 'hidden' | 'forbidden'): Promise<CanaryResult> {
  const logLines: string[] = [];
  const logger = pino({ level: 'trace' }, new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
  const server = await startTestServer({ env: { RESTRICTED_MODE: mode }, logger });
  try {
    const world = await restrictedWorld(server);
    const result: CanaryResult = { mode, canaries: 0, requests: 0, leaked: 0, missing: 0, tokensLeaked: 0, failed: 0, examples: [] };
    const planted: Planted[] = [];
    let counter = 0;
    for (const kind of KINDS) planted.push(await plantKind(server, world, kind, () => `canary-${String(++counter).padStart(4, '0')}-z`));
    result.canaries = counter;
    const everyRead = [...new Set([...planted.flatMap((p) => [...p.reads, ...p.downloads]), ...(await everyFeedQuery(server, world))])];
    for (const reader of READERS) {
      const key: ReaderKey = 'key' in reader ? reader.key : undefined;
      const texts = new Map<string, string>();
      for (const path of everyRead) {
        const { path: plain, headers } = readRequest(path);
        const reply = await server.request('GET', plain, { key, headers, token: 'token' in reader ? reader.token : undefined });
        result.requests++;
        if (reply.status >= 500) note(result, 'failed', `${path} as ${reader.name}: ${reply.status}`);
        texts.set(path, reply.text);
      }
      for (const p of planted) {
        const whole = p.kind.fullAccess.includes(key);
        for (const canary of p.canaries) {
          if (!whole) {
            const where = [...texts].find(([, text]) => text.includes(canary))?.[0];
            if (where) note(result, 'leaked', `${p.kind.name} ${canary} reached ${reader.name} through ${where}`);
          } else if (!p.reads.some((path) => texts.get(path)!.includes(canary))) {
            note(result, 'missing', `${p.kind.name} ${canary} not shown to ${reader.name}`);
          }
        }
      }
      for (const token of world.tokens) {
        const where = [...texts].find(([, text]) => text.includes(token))?.[0];
        if (where) note(result, 'tokensLeaked', `a token reached ${reader.name} through ${where}`);
      }
    }
    for (const token of world.tokens)
      if (logLines.some((line) => line.includes(token))) note(result, 'tokensLeaked', 'a token in a log line');
    return result;
  } finally {
    await server.close();
  }
}

function note(result: CanaryResult, what: 'leaked' | 'missing' | 'tokensLeaked' | 'failed', example: string) {
  result[what]++;
  if (result.examples.length < 12) result.examples.push(`${what} (${result.mode}): ${example}`);
}

async function restrictedWorld(server: TestServer): Promise<World> {
  const framework = await activeFramework(server, { restricted: true });
  const submission = await activeSubmission(server, framework.id, { key: 'broker1' });
  await uploadDocument(server, `${API}/submissions/${submission.id}/documents`, { key: 'broker1', token: submission.token });
  await uploadDocument(server, `${API}/qualifications/${submission.qualificationID}/documents`, {
    key: 'broker',
    token: framework.token,
    filename: 'sign.p7s',
    type: 'application/pkcs7-signature',
  });
  await decideQualification(server, framework, submission.qualificationID, 'active');
  const agreementId = (await server.request('GET', `${API}/frameworks/${framework.id}`)).body.data.agreementID as string;
  const question = await server.request('POST', `${API}/frameworks/${framework.id}/questions`, {
    key: 'broker1',
    body: { data: aQuestion() },
  });
  const tenderAgreement = await insertAgreement(server, { restricted: true });
  const lot = newId();
  const tender = await createTender(
    server,
    aCompetitiveOrderingTender(tenderAgreement, { lots: [aLot({ id: lot })], items: [anItem({ relatedLot: lot })] }),
    competitiveOrderingConfig({ restricted: true }),
  );
  await uploadDocument(server, `${API}/tenders/${tender.id}/documents`, { key: 'broker', token: tender.token });
  // Active, so the tender is in its feed as well.
  const activated = await server.request('PATCH', `${API}/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.tendering' } },
  });
  if (activated.status !== 200) throw new Error(`tender not activated: ${activated.status} ${activated.text}`);
  const contract = await server.request('POST', `${API}/contracts`, { key: 'contracting', body: { data: aContract(tender.id) } });
  await uploadDocument(server, `${API}/contracts/${contract.body.data.id}/documents`, { key: 'broker', token: contract.body.access.token });
  const bidding = await tenderWithPublicBids(server);
  const tokens = [framework.reply, submission.reply, contract, ...bidding.replies].flatMap((r) => [
    r.body.access?.token,
    r.body.access?.transfer,
  ]);
  tokens.push(tender.token, framework.token, submission.token, bidding.token);
  return {
    framework,
    submission,
    agreementId,
    questionId: question.body.data.id as string,
    tender,
    contractId: contract.body.data.id as string,
    bidding: { id: bidding.id, awardContractId: bidding.awardContractId },
    tokens: [...new Set(tokens.filter((t): t is string => typeof t === 'string'))],
  };
}

/** A document uploaded to `documents` and then given a second version (PUT), so reads carry `previousVersions`. */
async function newVersionOf(server: TestServer, documents: string, as: { key: string; token: string }) {
  const uploaded = await uploadDocument(server, documents, as);
  const put = await uploadDocument(server, `${documents}/${uploaded.body.data.id}`, { ...as, method: 'PUT' });
  if (put.status !== 200) throw new Error(`document version not made: ${put.status} ${put.text}`);
}

/**
 * A restricted competitiveOrdering tender taken past its auction through the API: two bids, a bid document in two
 * versions, the end of tendering, the auction module (docs/tenders.md §Bids, §Auction); then the winner's award gets
 * a document in two versions and is activated, which makes its contract (docs/tenders.md §Awards). The clock goes back afterwards.
 */
async function tenderWithPublicBids(server: TestServer) {
  const now = server.clock.now();
  const lot = newId();
  const agreement = await insertAgreement(server, { restricted: true });
  const tender = await createTender(
    server,
    aCompetitiveOrderingTender(agreement, { lots: [aLot({ id: lot })], items: [anItem({ relatedLot: lot })] }),
    competitiveOrderingConfig({ restricted: true }),
  );
  const activated = await server.request('PATCH', `${API}/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.tendering' } },
  });
  const replies = [];
  for (const [i, key] of [
    [1, 'broker1'],
    [2, 'broker3'],
  ] as const) {
    const reply = await server.request('POST', `${API}/tenders/${tender.id}/bids`, {
      key,
      body: { data: aBid(activated.body, 400 + i, i, { status: 'pending' }) },
    });
    if (reply.status !== 201) throw new Error(`bid not made: ${reply.status} ${reply.text}`);
    const documents = `${API}/tenders/${tender.id}/bids/${reply.body.data.id}/documents`;
    await newVersionOf(server, documents, { key, token: reply.body.access.token });
    replies.push(reply);
  }
  server.clock.set(new Date(CO_TENDERING_END.getTime() + 60_000));
  await runChronograph(server, tender.id);
  await playAuction(
    { request: (method, path, body) => server.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const award = (await server.request('GET', `${API}/tenders/${tender.id}/awards`)).body.data[0];
  const awardPath = `${API}/tenders/${tender.id}/awards/${award.id}`;
  await newVersionOf(server, `${awardPath}/documents`, { key: 'broker', token: tender.token });
  const decided = await server.request('PATCH', awardPath, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active', qualified: true, eligible: true } },
  });
  if (decided.status !== 200) throw new Error(`award not activated: ${decided.status} ${decided.text}`);
  const awardContractId = (await server.request('GET', `${API}/tenders/${tender.id}/contracts`)).body.data[0].id as string;
  server.clock.set(now);
  return { id: tender.id, token: tender.token, replies, awardContractId };
}

/** Plants one canary per expanded path of the kind's spec rows, written straight to the store. */
async function plantKind(server: TestServer, world: World, kind: RestrictedKind, nextCanary: () => string): Promise<Planted> {
  const { kind: storeKind, id, inList } = kind.target(world);
  const session = server.store.session();
  const stored = (await session.get(storeKind, id))!;
  const doc = structuredClone(stored.doc) as ObjectDoc;
  const targets = inList ? ((doc as StoredDoc)[inList] as StoredDoc[]) : [doc.data];
  const canaries: string[] = [];
  for (const path of expandRows(kind.rows)) {
    const canary = nextCanary();
    for (const target of targets) plant(target, path, canary);
    canaries.push(canary);
  }
  // Written around the save rules on purpose: every array the spec names gets its canaries, as stored data.
  await session.commit([updateOf(stored, doc, Object.keys(doc.data))]);
  const downloads = ((doc.data.documents ?? []) as StoredDoc[])
    .map((d) => (typeof d.url === 'string' && d.url.includes('download=') ? new URL(d.url) : null))
    .filter((u): u is URL => u !== null)
    .map((u) => `${u.pathname}${u.search}`);
  // Every version of the object too (docs/platform.md §Revision history), the one the canaries made among them.
  const versions = (await session.history(storeKind, id)).length;
  const historical = Array.from({ length: versions }, (_, i) => `${API}/${storeKind}/${id}/historical${VERSION_MARK}${i + 1}`);
  return { kind, canaries, reads: [...kind.reads(world, doc.data), ...historical], downloads };
}

/** A read path ending `#N` is a historical read of version N: the number goes in `X-Revision-N`. */
const VERSION_MARK = '#';

function readRequest(path: string): { path: string; headers?: Record<string, string> } {
  const [plain, version] = path.split(VERSION_MARK);
  return version ? { path: plain, headers: { 'X-Revision-N': version } } : { path };
}

/**
 * Sets `path` (spec syntax; `..key` planted at the level it starts from) to the canary, creating what is missing.
 * A stored download url keeps working: the canary goes into its query.
 */
function plant(node: StoredDoc, path: string, canary: string) {
  const segments = [...path.replace(/^\$/, '').matchAll(/(?:\.\.|\.)?([^.[\]]+)(\[\*\])?/g)].map((m) => ({ key: m[1], each: !!m[2] }));
  let level: StoredDoc[] = [node];
  segments.forEach(({ key, each }, i) => {
    const last = i === segments.length - 1;
    level = level.flatMap((parent) => {
      if (last) {
        const old = parent[key];
        parent[key] = key === 'url' && typeof old === 'string' && old.includes('download=') ? `${old}&canary=${canary}` : canary;
        return [];
      }
      if (each) {
        if (!Array.isArray(parent[key]) || parent[key].length === 0) parent[key] = [{}];
        parent[key] = parent[key].map((el: unknown) => (el && typeof el === 'object' ? el : {}));
        return parent[key];
      }
      if (!parent[key] || typeof parent[key] !== 'object' || Array.isArray(parent[key])) parent[key] = {};
      return [parent[key]];
    });
  });
}

/** Every feed (and a framework's derivative feeds) with no opt_fields, with each field of its objects alone, and with all. */
async function everyFeedQuery(server: TestServer, world: World): Promise<string[]> {
  const feeds: [string, Kind][] = [
    ...(['submissions', 'qualifications', 'agreements', 'frameworks', 'tenders', 'contracts'] as const).map((k): [string, Kind] => [
      `${API}/${k}`,
      k,
    ]),
    [`${API}/frameworks/${world.framework.id}/submissions`, 'submissions'],
    [`${API}/frameworks/${world.framework.id}/qualifications`, 'qualifications'],
  ];
  const paths: string[] = [];
  for (const [feed, kind] of feeds) {
    const [newest] = await server.store.session().feed({ kind, descending: true, limit: 1, mode: 'all' });
    const fields = Object.keys(newest?.doc.data ?? {});
    paths.push(feed, `${feed}?opt_fields=${fields.join(',')}`, ...fields.map((f) => `${feed}?opt_fields=${f}`));
  }
  return paths;
}

import pino from 'pino';
import { Writable } from 'node:stream';
import { updateOf, type ObjectDoc } from '../../src/domain/core/objects';
import { agreementDerivative } from '../../src/domain/agreement/agreement.access';
import { CONTRACT_MASK } from '../../src/domain/contract/contract.mask';
import { qualificationDerivative } from '../../src/domain/qualification/qualification.access';
import { QUESTION_MASK } from '../../src/domain/question/question.mask';
import { submissionDerivative } from '../../src/domain/submission/submission.access';
import { TENDER_MASK } from '../../src/domain/tender/tender.mask';
import type { MaskTable } from '../../src/masking/mask';
import type { Kind } from '../../src/store/port';
import { activeFramework, activeSubmission, aQuestion, decideQualification, uploadDocument } from '../../test/fixtures/frameworks';
import { aCompetitiveOrderingTender, aContract, competitiveOrderingConfig, createTender, insertAgreement } from '../../test/fixtures/tenders';
import { startTestServer, type TestServer } from '../../test/fixtures/server';

const API = '/api/2.5';

/** Every kind of reader the access rules distinguish, and the ways of being nobody. */
const READERS = [
  { name: 'anonymous' },
  { name: 'anonymous with a wrong token', token: '0'.repeat(32) },
  { name: 'unknown key', key: 'no-such-key' },
  { name: 'owner (procuring entity broker)', key: 'broker' },
  { name: 'participant', key: 'broker1' },
  { name: 'other broker', key: 'broker2' },
  { name: 'other broker with a wrong token', key: 'broker2', token: 'f'.repeat(32) },
  { name: 'r broker', key: 'brokerr' },
] as const;
type ReaderKey = string | undefined;

interface Planted {
  object: string;
  /** Keys of the readers the spec lets see this object whole. */
  mayRead: ReaderKey[];
  /** The single reads that must show every canary to those readers. */
  reads: string[];
  canaries: string[];
}

export interface CanaryResult {
  mode: 'hidden' | 'forbidden';
  canaries: number;
  requests: number;
  /** (canary, reader) pairs where a reader who must not see a canary got it somewhere. */
  leaked: number;
  /** (canary, reader) pairs where a reader who may see the object did not get the canary in its single read. */
  missing: number;
  /** Owner or transfer tokens found in any view, feed entry or log line. */
  tokensLeaked: number;
  examples: string[];
}

/**
 * Plants a unique canary in every field the hiding tables cover (restricted submission, qualification,
 * agreement, framework questions, documents, tender, contract), then reads every object, document and feed
 * (opt_fields: none, each field of the object, all at once) as every kind of reader.
 */
export async function runCanaries(mode: 'hidden' | 'forbidden'): Promise<CanaryResult> {
  const logLines: string[] = [];
  const logger = pino({ level: 'trace' }, new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
  const server = await startTestServer({ env: { RESTRICTED_MODE: mode }, logger });
  try {
    const world = await restrictedWorld(server);
    const result: CanaryResult = { mode, canaries: 0, requests: 0, leaked: 0, missing: 0, tokensLeaked: 0, examples: [] };
    const planted = await plantAll(server, world);
    result.canaries = planted.reduce((n, p) => n + p.canaries.length, 0);
    const feedPaths = await everyFeedQuery(server);
    const singlePaths = [...new Set(planted.flatMap((p) => p.reads))];
    for (const reader of READERS) {
      const texts = new Map<string, string>();
      for (const path of [...singlePaths, ...feedPaths]) {
        const reply = await server.request('GET', path, { key: 'key' in reader ? reader.key : undefined, token: 'token' in reader ? reader.token : undefined });
        if (reply.status >= 500) throw new Error(`${path} as ${reader.name}: ${reply.status} ${reply.text}`);
        texts.set(path, reply.text);
        result.requests++;
      }
      const readerKey = 'key' in reader ? reader.key : undefined;
      for (const p of planted) {
        const allowed = p.mayRead.includes(readerKey);
        for (const canary of p.canaries) {
          if (!allowed) {
            const where = [...texts].find(([, text]) => text.includes(canary))?.[0];
            if (where) note(result, 'leaked', `${p.object} ${canary} reached ${reader.name} through ${where}`);
          } else if (!p.reads.some((path) => texts.get(path)!.includes(canary))) {
            note(result, 'missing', `${p.object} ${canary} not shown to ${reader.name}`);
          }
        }
      }
      for (const token of world.tokens) {
        const where = [...texts].find(([, text]) => text.includes(token))?.[0];
        if (where) note(result, 'tokensLeaked', `a token reached ${reader.name} through ${where}`);
      }
    }
    for (const token of world.tokens) if (logLines.some((line) => line.includes(token))) note(result, 'tokensLeaked', 'a token in a log line');
    return result;
  } finally {
    await server.close();
  }
}

function note(result: CanaryResult, what: 'leaked' | 'missing' | 'tokensLeaked', example: string) {
  result[what]++;
  if (result.examples.length < 10) result.examples.push(`${what}: ${example}`);
}

async function restrictedWorld(server: TestServer) {
  const framework = await activeFramework(server, { restricted: true });
  const submission = await activeSubmission(server, framework.id, { key: 'broker1' });
  const submissionDoc = await uploadDocument(server, `${API}/submissions/${submission.id}/documents`, { key: 'broker1', token: submission.token });
  const qualificationDoc = await uploadDocument(server, `${API}/qualifications/${submission.qualificationID}/documents`, {
    key: 'broker', token: framework.token, filename: 'sign.p7s', type: 'application/pkcs7-signature',
  });
  await decideQualification(server, framework, submission.qualificationID, 'active');
  const agreementId = (await server.request('GET', `${API}/frameworks/${framework.id}`)).body.data.agreementID as string;
  const question = await server.request('POST', `${API}/frameworks/${framework.id}/questions`, { key: 'broker1', body: { data: aQuestion() } });
  const tenderAgreement = await insertAgreement(server, { restricted: true });
  const tender = await createTender(server, aCompetitiveOrderingTender(tenderAgreement), competitiveOrderingConfig({ restricted: true }));
  const contract = await server.request('POST', `${API}/contracts`, { key: 'contracting', body: { data: aContract(tender.id) } });
  const tokens = [framework.reply, submission.reply, contract].flatMap((r) => [r.body.access?.token, r.body.access?.transfer]);
  tokens.push(tender.token, framework.token, submission.token);
  return {
    framework,
    submission,
    agreementId,
    tender,
    questionId: question.body.data.id as string,
    contractId: contract.body.data.id as string,
    submissionDocId: submissionDoc.body.data.id as string,
    qualificationDocId: qualificationDoc.body.data.id as string,
    tokens: [...new Set(tokens.filter((t): t is string => typeof t === 'string'))],
  };
}

type World = Awaited<ReturnType<typeof restrictedWorld>>;

async function plantAll(server: TestServer, w: World): Promise<Planted[]> {
  const s = `${API}/submissions/${w.submission.id}`;
  const q = `${API}/qualifications/${w.submission.qualificationID}`;
  const questions = `${API}/frameworks/${w.framework.id}/questions`;
  const plans: { kind: Kind; id: string; table: MaskTable; inQuestions?: boolean; mayRead: ReaderKey[]; reads: string[] }[] = [
    { kind: 'submissions', id: w.submission.id, table: submissionDerivative.mask, mayRead: ['broker', 'broker1', 'brokerr'], reads: [s, `${s}/documents`, `${s}/documents/${w.submissionDocId}`] },
    { kind: 'qualifications', id: w.submission.qualificationID, table: qualificationDerivative.mask, mayRead: ['broker', 'broker1', 'brokerr'], reads: [q, `${q}/documents`, `${q}/documents/${w.qualificationDocId}`] },
    { kind: 'agreements', id: w.agreementId, table: agreementDerivative.mask, mayRead: ['broker', 'brokerr'], reads: [`${API}/agreements/${w.agreementId}`] },
    { kind: 'frameworks', id: w.framework.id, table: QUESTION_MASK, inQuestions: true, mayRead: ['broker', 'brokerr'], reads: [questions, `${questions}/${w.questionId}`] },
    { kind: 'tenders', id: w.tender.id, table: TENDER_MASK, mayRead: ['broker', 'brokerr'], reads: [`${API}/tenders/${w.tender.id}`] },
    { kind: 'contracts', id: w.contractId, table: CONTRACT_MASK, mayRead: ['broker', 'brokerr'], reads: [`${API}/contracts/${w.contractId}`] },
  ];
  let counter = 0;
  const planted: Planted[] = [];
  for (const plan of plans) {
    const session = server.store.session();
    const stored = (await session.get(plan.kind, plan.id))!;
    const doc = structuredClone(stored.doc) as ObjectDoc;
    const targets: Record<string, unknown>[] = plan.inQuestions ? (doc.questions as Record<string, unknown>[]) : [doc.data];
    const canaries: string[] = [];
    for (const path of plan.table) {
      const canary = `canary-${String(++counter).padStart(4, '0')}-z`;
      targets.forEach((target) => plant(target, path, canary));
      canaries.push(canary);
    }
    await session.commit([updateOf(stored, doc)]);
    planted.push({ object: `${plan.kind}${plan.inQuestions ? ' questions' : ''}`, mayRead: plan.mayRead, reads: plan.reads, canaries });
  }
  return planted;
}

/** Sets `path` (mask syntax; `..key` planted at the level it starts from) to `value`, creating what is missing. */
function plant(node: Record<string, any>, path: string, value: string) {
  const segments = [...path.replace(/^\$/, '').matchAll(/(?:\.\.|\.)?([^.[\]]+)(\[\*\])?/g)].map((m) => ({ key: m[1], each: !!m[2] }));
  let level: Record<string, any>[] = [node];
  segments.forEach(({ key, each }, i) => {
    const last = i === segments.length - 1;
    level = level.flatMap((parent) => {
      if (last) {
        parent[key] = value;
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

/** Every feed with no opt_fields, with each field of its objects alone, and with all of them. */
async function everyFeedQuery(server: TestServer): Promise<string[]> {
  const paths: string[] = [];
  for (const kind of ['submissions', 'qualifications', 'agreements', 'frameworks', 'tenders', 'contracts'] as const) {
    const session = server.store.session();
    const [newest] = await session.feed({ kind, descending: true, limit: 1, mode: 'all' });
    const fields = Object.keys(newest?.doc.data ?? {});
    paths.push(`${API}/${kind}`, `${API}/${kind}?opt_fields=${fields.join(',')}`, ...fields.map((f) => `${API}/${kind}?opt_fields=${f}`));
  }
  return paths;
}

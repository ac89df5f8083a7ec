import fc from 'fast-check';
import { KINDS, type Kind } from '../../src/store/port';
import {
  aFramework,
  activeFramework,
  activeSubmission,
  aQuestion,
  aTenderer,
  decideQualification,
  uploadDocument,
} from '../../test/fixtures/frameworks';
import {
  aBid,
  aContract,
  aLot,
  aTender,
  belowThresholdConfig,
  createLottedTender,
  createTender,
  placeBid,
  tenderAfterTendering,
  tenderInTendering,
} from '../../test/fixtures/tenders';
import { aPlan, createPlan } from '../../test/fixtures/plans';
import { MILESTONE_APPROVAL_TITLE } from '../../src/domain/plan/plan.schema';
import { startTestServer, type Reply, type TestServer } from '../../test/fixtures/server';
import { aSigner, decision, patchAward, tenderInQualification } from '../../test/fixtures/awards';
import { hostileBody, hostileHeaders, hostileQuery } from './hostile-input';

const API = '/api/2.5';
const SEED = 20261005;
const ERROR_LOCATIONS = new Set(['body', 'url', 'querystring', 'header', '']);

interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  key?: string;
  token?: string;
  /** A body this endpoint accepts, which the fuzzer breaks in every way; none for GET. */
  valid?: Record<string, unknown>;
}

export interface FuzzResult {
  endpoints: number;
  cases: number;
  serverErrors: number;
  /** Error answers not in the `{status: "error", errors: [{location, name, description}]}` shape. */
  badFormat: number;
  /** Refused requests after which something stored had changed, or Object.prototype was polluted. */
  stateCorrupted: number;
  examples: string[];
}

/**
 * Property-based fuzzing of every endpoint's body, query and headers with fast-check (fixed seed, so a
 * failure reproduces): never a 5xx, every error in the reference's format, and a refused request changes
 * nothing stored.
 */
export async function runFuzz(runsPerEndpoint: number, now?: Date): Promise<FuzzResult> {
  const server = await startTestServer({ now });
  try {
    const world = await buildWorld(server);
    const result: FuzzResult = {
      endpoints: world.endpoints.length,
      cases: 0,
      serverErrors: 0,
      badFormat: 0,
      stateCorrupted: 0,
      examples: [],
    };
    for (const [e, endpoint] of world.endpoints.entries()) {
      const seed = SEED + e;
      const headerRuns = Math.max(1, Math.floor(runsPerEndpoint / 4));
      const cases: { body?: string; query?: string; headers?: Record<string, string> }[] = [
        ...(endpoint.valid
          ? fc.sample(hostileBody(endpoint.valid), { numRuns: runsPerEndpoint, seed }).map((body) => ({ body }))
          : fc.sample(hostileQuery, { numRuns: runsPerEndpoint, seed }).map((query) => ({ query }))),
        ...fc.sample(hostileHeaders, { numRuns: headerRuns, seed }).map((headers) => ({
          headers,
          body: endpoint.valid && JSON.stringify(endpoint.valid),
        })),
      ];
      let before = await snapshot(server, world.objects);
      for (const c of cases) {
        const reply = await send(server, endpoint, c);
        result.cases++;
        const after = await snapshot(server, world.objects);
        const problem = judge(reply, before, after);
        before = after;
        if (!problem) continue;
        result[problem]++;
        if (result.examples.length < 5) {
          const shown = [c.query ?? '', JSON.stringify(c.headers ?? {}), c.body ?? ''].map((part) => part.slice(0, 120)).join(' ');
          result.examples.push(`${problem}: ${endpoint.method} ${endpoint.path} ${shown} → ${reply.status} ${reply.text.slice(0, 200)}`);
        }
      }
    }
    return result;
  } finally {
    await server.close();
  }
}

async function send(
  server: TestServer,
  endpoint: Endpoint,
  c: { body?: string; query?: string; headers?: Record<string, string> },
): Promise<Reply> {
  const path = c.query ? `${endpoint.path}?${c.query}` : endpoint.path;
  const { 'content-type': contentType, ...headers } = c.headers ?? {};
  return server.request(endpoint.method, path, {
    key: c.headers?.authorization ? undefined : endpoint.key,
    token: endpoint.token,
    raw: c.body,
    contentType,
    headers,
  });
}

/** `before` and `after` are the store's snapshots around the request (the fuzzer sends one at a time). */
function judge(reply: Reply, before: string, after: string): 'serverErrors' | 'badFormat' | 'stateCorrupted' | null {
  if (Object.keys(Object.prototype).length > 0 || ({} as { polluted?: unknown }).polluted !== undefined) return 'stateCorrupted';
  if (reply.status >= 500) return 'serverErrors';
  if (reply.status < 400) return null;
  if (!isErrorBody(reply.body)) return 'badFormat';
  return after === before ? null : 'stateCorrupted';
}

/** The reference's error body: `{status: "error", errors: [{location, name, description}, …]}`. */
export const isErrorBody = (body: any) =>
  body?.status === 'error' &&
  Array.isArray(body.errors) &&
  body.errors.length > 0 &&
  body.errors.every((e: any) => ERROR_LOCATIONS.has(e?.location) && typeof e.name === 'string' && e.description !== undefined);

/** The newest commit of every collection and the revision of every object of the world. */
async function snapshot(server: TestServer, objects: [Kind, string][]): Promise<string> {
  const session = server.store.session();
  const parts: string[] = [];
  for (const kind of KINDS) {
    const [top] = await session.feed({ kind, descending: true, limit: 1, mode: 'all' });
    parts.push(`${kind}@${top?.seq ?? 0}`);
  }
  for (const [kind, id] of objects) parts.push(`${id}#${(await session.get(kind, id))?.rev}`);
  return parts.join(' ');
}

/** One object of every kind, and every endpoint that reads or changes them. */
export async function buildWorld(server: TestServer) {
  const now = server.clock.now();
  // A tender in its auction (the clock moved past its tendering, then back), and one open for bids.
  const { tender: auctioned, bids: sealed } = await tenderAfterTendering(server);
  server.clock.set(now);
  const auctionLot = auctioned.data.lots[0].id;
  const bidding = await tenderInTendering(server, { procedure: 'competitiveOrdering' });
  const bid = await placeBid(server, bidding, 450, 1);
  const bidPath = `${API}/tenders/${bidding.id}/bids/${bid.id}`;
  const auction = `${API}/tenders/${auctioned.id}/auction`;
  // A tender with a pending award, and one whose award is active with its pending contract.
  const { tender: qualifying, data: pending } = await tenderInQualification(server);
  server.clock.set(now);
  const { tender: awarded, bids: winners, data: won } = await tenderInQualification(server);
  await patchAward(server, awarded, won.awards[0].id, decision('active', true, false));
  server.clock.set(now);
  const awardPath = `${API}/tenders/${qualifying.id}/awards/${pending.awards[0].id}`;
  const signed = (await server.request('GET', `${API}/tenders/${awarded.id}/contracts`)).body.data[0].id as string;
  const framework = await activeFramework(server);
  const submission = await activeSubmission(server, framework.id, { key: 'broker1' });
  await decideQualification(server, framework, submission.qualificationID, 'active');
  const agreementId = (await server.request('GET', `${API}/frameworks/${framework.id}`)).body.data.agreementID as string;
  const question = await server.request('POST', `${API}/frameworks/${framework.id}/questions`, {
    key: 'broker1',
    body: { data: aQuestion() },
  });
  const tender = await createTender(server, aTender());
  const contract = await server.request('POST', `${API}/contracts`, { key: 'contracting', body: { data: aContract(tender.id) } });
  const questionPath = `${API}/frameworks/${framework.id}/questions/${question.body.data.id}`;
  const contractId = contract.body.data.id as string;
  const lot = await server.request('POST', `${API}/tenders/${tender.id}/lots`, {
    key: 'broker',
    token: tender.token,
    body: { data: aLot() },
  });
  const lotPath = `${API}/tenders/${tender.id}/lots/${lot.body.data.id}`;
  const documentPath = `${API}/tenders/${tender.id}/documents/${(await uploadDocument(server, `${API}/tenders/${tender.id}/documents`, { key: 'broker', token: tender.token })).body.data.id}`;
  const spareLot = await server.request('POST', `${API}/tenders/${tender.id}/lots`, {
    key: 'broker',
    token: tender.token,
    body: { data: aLot() },
  });
  const open = await createLottedTender(server);
  await server.request('PATCH', `${API}/tenders/${open.id}`, {
    key: 'broker',
    token: open.token,
    body: { data: { status: 'active.enquiries' } },
  });
  const cancellations = `${API}/tenders/${open.id}/cancellations`;
  const aCancellation = { reason: 'Причина', reasonType: 'noDemand' };
  const cancellation = await server.request('POST', cancellations, { key: 'broker', token: open.token, body: { data: aCancellation } });
  const cancellationPath = `${cancellations}/${cancellation.body.data.id}`;
  const agreementContractId = (await server.request('GET', `${API}/agreements/${agreementId}`)).body.data.contracts[0].id as string;
  const milestones = `${API}/agreements/${agreementId}/contracts/${agreementContractId}/milestones`;
  const plan = await createPlan(server);
  // A document on each sub-resource that has them, for its PUT and PATCH.
  const documentOf = async (holder: string, key: string, token: string) =>
    `${holder}/documents/${(await uploadDocument(server, `${holder}/documents`, { key, token })).body.data.id}`;
  const bidDocument = await documentOf(bidPath, 'broker1', bid.token);
  const awardDocument = await documentOf(awardPath, 'broker', qualifying.token);
  const cancellationDocument = await documentOf(cancellationPath, 'broker', open.token);
  const periodChange = {
    modifications: { qualificationPeriod: { endDate: new Date(now.getTime() + 200 * 86_400_000).toISOString() } },
    rationaleType: 'other',
    rationale: 'Причина',
  };
  const endpoints: Endpoint[] = [
    { method: 'POST', path: `${API}/frameworks`, key: 'broker', valid: { data: aFramework(now) } },
    {
      method: 'PATCH',
      path: `${API}/frameworks/${framework.id}`,
      key: 'broker',
      token: framework.token,
      valid: { data: { description: 'опис' } },
    },
    { method: 'PATCH', path: `${API}/frameworks/${framework.id}/chronograph`, key: 'chronograph', valid: { data: { id: framework.id } } },
    { method: 'POST', path: `${API}/frameworks/${framework.id}/questions`, key: 'broker1', valid: { data: aQuestion() } },
    { method: 'PATCH', path: questionPath, key: 'broker', token: framework.token, valid: { data: { answer: 'Відповідь' } } },
    {
      method: 'POST',
      path: `${API}/submissions`,
      key: 'broker2',
      valid: { data: { tenderers: [aTenderer('00137257')], frameworkID: framework.id } },
    },
    {
      method: 'PATCH',
      path: `${API}/submissions/${submission.id}`,
      key: 'broker1',
      token: submission.token,
      valid: { data: { tenderers: [aTenderer()] } },
    },
    {
      method: 'PATCH',
      path: `${API}/qualifications/${submission.qualificationID}`,
      key: 'broker',
      token: framework.token,
      valid: { data: { status: 'active' } },
    },
    { method: 'POST', path: `${API}/tenders`, key: 'broker', valid: { data: aTender(), config: belowThresholdConfig() } },
    { method: 'PATCH', path: `${API}/tenders/${tender.id}`, key: 'broker', token: tender.token, valid: { data: { title: 'Назва' } } },
    { method: 'POST', path: `${API}/tenders/${tender.id}/criteria`, key: 'broker', token: tender.token, valid: { data: [] } },
    { method: 'POST', path: `${API}/contracts`, key: 'contracting', valid: { data: aContract(tender.id) } },
    {
      method: 'PATCH',
      path: `${API}/contracts/${contractId}`,
      key: 'broker',
      token: contract.body.access.token,
      valid: { data: { title: 'Договір 2' } },
    },
    {
      method: 'POST',
      path: `${API}/contracts/${contractId}/changes`,
      key: 'broker',
      token: contract.body.access.token,
      valid: { data: { rationale: 'Причина', rationaleTypes: ['volumeCuts'] } },
    },
    { method: 'POST', path: `${API}/tenders/${tender.id}/lots`, key: 'broker', token: tender.token, valid: { data: aLot() } },
    { method: 'PATCH', path: lotPath, key: 'broker', token: tender.token, valid: { data: { title: 'Лот 2' } } },
    { method: 'POST', path: `${API}/tenders/${tender.id}/questions`, key: 'broker1', valid: { data: aQuestion() } },
    {
      method: 'PATCH',
      path: documentPath,
      key: 'broker',
      token: tender.token,
      valid: { data: { description: 'опис', documentType: 'notice' } },
    },
    // A PUT takes a file: every JSON body is refused, and the fuzzer checks how.
    { method: 'PUT', path: documentPath, key: 'broker', token: tender.token, valid: { data: { title: 'v2.doc' } } },
    ...(
      [
        [bidDocument, 'broker1', bid.token],
        [awardDocument, 'broker', qualifying.token],
        [cancellationDocument, 'broker', open.token],
      ] as const
    ).flatMap(([path, key, token]): Endpoint[] => [
      { method: 'PATCH', path, key, token, valid: { data: { description: 'опис', documentType: 'notice' } } },
      { method: 'PUT', path, key, token, valid: { data: { title: 'v2.doc' } } },
    ]),
    { method: 'DELETE', path: `${API}/tenders/${tender.id}/lots/${spareLot.body.data.id}`, key: 'broker', token: tender.token },
    {
      method: 'POST',
      path: `${API}/frameworks/${framework.id}/changes`,
      key: 'broker',
      token: framework.token,
      valid: { data: periodChange },
    },
    { method: 'POST', path: milestones, key: 'broker', token: framework.token, valid: { data: { type: 'ban' } } },
    { method: 'POST', path: cancellations, key: 'broker', token: open.token, valid: { data: aCancellation } },
    { method: 'PATCH', path: cancellationPath, key: 'broker', token: open.token, valid: { data: { reasonType: 'unFixable' } } },
    { method: 'POST', path: `${API}/tenders/${open.id}/complaints`, key: 'broker', valid: { data: { title: 'Скарга' } } },
    { method: 'POST', path: `${cancellationPath}/complaints`, key: 'broker', valid: { data: { title: 'Скарга' } } },
    { method: 'POST', path: `${API}/tenders/${bidding.id}/bids`, key: 'broker2', valid: { data: aBid(bidding, 440, 2) } },
    { method: 'PATCH', path: bidPath, key: 'broker1', token: bid.token, valid: { data: { status: 'pending' } } },
    {
      method: 'PATCH',
      path: `${auction}/${auctionLot}`,
      key: 'auction',
      valid: {
        data: {
          lots: [{ auctionUrl: 'https://auction.example.org/x' }],
          bids: sealed.map(() => ({ lotValues: [{ participationUrl: 'https://auction.example.org/y' }] })),
        },
      },
    },
    {
      method: 'POST',
      path: `${auction}/${auctionLot}`,
      key: 'auction',
      valid: { data: { bids: sealed.map(() => ({ lotValues: [{ value: { amount: 400 } }] })) } },
    },
    { method: 'GET', path: `${API}/tenders/${bidding.id}/bids` },
    { method: 'GET', path: bidPath, key: 'broker1', token: bid.token },
    { method: 'GET', path: `${bidPath}/documents`, key: 'broker2' },
    { method: 'GET', path: auction, key: 'auction' },
    { method: 'PATCH', path: awardPath, key: 'broker', token: qualifying.token, valid: { data: { status: 'active', qualified: true } } },
    {
      method: 'PUT',
      path: `${API}/contracts/${signed}/buyer/signer_info`,
      key: 'broker',
      token: awarded.token,
      valid: { data: aSigner() },
    },
    {
      method: 'PUT',
      path: `${API}/contracts/${signed}/suppliers/signer_info`,
      key: 'broker2',
      token: winners[1].token,
      valid: { data: aSigner() },
    },
    { method: 'PATCH', path: `${API}/contracts/${signed}`, key: 'broker', token: awarded.token, valid: { data: { status: 'active' } } },
    { method: 'GET', path: `${API}/tenders/${qualifying.id}/awards` },
    { method: 'GET', path: awardPath },
    { method: 'GET', path: `${awardPath}/documents` },
    { method: 'GET', path: `${API}/tenders/${awarded.id}/contracts` },
    { method: 'GET', path: `${API}/tenders/${awarded.id}/contracts/${signed}` },
    { method: 'POST', path: `${API}/plans`, key: 'broker', valid: { data: aPlan() } },
    {
      method: 'PATCH',
      path: `${API}/plans/${plan.id}`,
      key: 'broker',
      token: plan.token,
      valid: { data: { rationale: { description: 'Обгрунтування' } } },
    },
    { method: 'POST', path: `${API}/plans/${plan.id}/tenders`, key: 'broker', valid: { data: aTender(), config: belowThresholdConfig() } },
    {
      method: 'POST',
      path: `${API}/plans/${plan.id}/milestones`,
      key: 'broker',
      valid: {
        data: {
          title: MILESTONE_APPROVAL_TITLE,
          type: 'approval',
          author: plan.data.procuringEntity,
          dueDate: '2026-10-08T12:00:00+03:00',
        },
      },
    },
    ...KINDS.map((kind): Endpoint => ({ method: 'GET', path: `${API}/${kind}` })),
    { method: 'GET', path: `${API}/frameworks/${framework.id}` },
    { method: 'GET', path: `${API}/submissions/${submission.id}`, key: 'broker1' },
    { method: 'GET', path: `${API}/qualifications/${submission.qualificationID}` },
    { method: 'GET', path: `${API}/agreements/${agreementId}` },
    { method: 'GET', path: `${API}/tenders/${tender.id}` },
    { method: 'GET', path: `${API}/contracts/${contractId}` },
    { method: 'GET', path: `${API}/plans/${plan.id}` },
    { method: 'GET', path: `${API}/frameworks/${framework.id}/questions` },
    { method: 'GET', path: `${API}/frameworks/${framework.id}/submissions` },
    { method: 'GET', path: `${API}/frameworks/${framework.id}/qualifications` },
    { method: 'GET', path: `${API}/tenders/${tender.id}/lots` },
    { method: 'GET', path: milestones },
    { method: 'GET', path: cancellations },
    { method: 'GET', path: cancellationPath },
    { method: 'GET', path: `${cancellationPath}/documents` },
    { method: 'GET', path: `${API}/tenders/${open.id}/complaints` },
    { method: 'GET', path: `${API}/submissions/${submission.id}/documents` },
    { method: 'GET', path: `${API}/frameworks/${'f'.repeat(32)}` },
  ];
  const objects: [Kind, string][] = [
    ['frameworks', framework.id],
    ['submissions', submission.id],
    ['qualifications', submission.qualificationID],
    ['agreements', agreementId],
    ['tenders', tender.id],
    ['tenders', open.id],
    ['tenders', bidding.id],
    ['tenders', auctioned.id],
    ['tenders', qualifying.id],
    ['tenders', awarded.id],
    ['contracts', signed],
    ['contracts', contractId],
    ['plans', plan.id],
  ];
  return { endpoints, objects };
}

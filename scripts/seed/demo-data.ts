import { request, CookieJar, type Reply, type RequestOptions } from '../../test/fixtures/server';
import { aFramework, aProcuringEntity, aTenderer } from '../../test/fixtures/frameworks';
import { answersTo, belowThresholdConfig, competitiveOrderingConfig } from '../../test/fixtures/tenders';
import { requestBodies } from '../load/templates';
import { seedTimedStates, timedSteps, TIMED_STATES } from './timed-states';

/** How big the demo set is; every framework gets three qualified suppliers and so an agreement. */
export interface SeedPlan {
  frameworks: number;
  /** Tenders in all, of every kind (`tenderMix`). */
  tenders: number;
  /** Whether the node is in SANDBOX_MODE, so tenders can be taken through their periods in seconds. */
  timed?: boolean;
  /** belowThreshold plans; every other one gets its tender (`POST /plans/{id}/tenders`) while `tenderMix` has room. */
  plans: number;
}

/** How many tenders of each kind the seed makes: they add up to `plan.tenders`. */
export interface TenderMix {
  /** belowThreshold tenders made active, each with a contract posted by the contracting system. */
  active: number;
  /** belowThreshold drafts (no feed lists a draft). */
  drafts: number;
  /** competitiveOrdering tenders, one per agreement, in tendering with two bids. */
  competitiveOrdering: number;
  /** Draft tenders made from plans (`POST /plans/{id}/tenders`). */
  fromPlans: number;
  cancelled: number;
  /** Tenders past tendering (SANDBOX_MODE only): `TIMED_STATES` in order. */
  timed: number;
}

/**
 * Shares `plan.tenders` among the kinds, one of each first, so that a few tenders already show every kind: an active
 * one, one per agreement, a cancelled one, one per other plan, the timed ones; what is left goes to active tenders
 * and drafts, half each.
 */
export function tenderMix(plan: SeedPlan): TenderMix {
  let left = plan.tenders;
  const take = (wanted: number) => {
    const taken = Math.min(wanted, left);
    left -= taken;
    return taken;
  };
  const first = take(1);
  const competitiveOrdering = take(plan.frameworks);
  const cancelled = take(1);
  const fromPlans = take(Math.ceil(plan.plans / 2));
  const timed = plan.timed ? take(TIMED_STATES.length) : 0;
  const active = first + Math.ceil(left / 2);
  return { active, drafts: Math.floor(left / 2), competitiveOrdering, fromPlans, cancelled, timed };
}

const SUPPLIER_KEYS = ['broker1', 'broker2', 'broker3'];
/** Every second framework is a defense one, with restricted submissions, qualifications, agreement and tender. */
const isDefense = (framework: number) => framework % 2 === 1;

/** Steps of the plan, for a progress bar that knows its total. */
export const seedSteps = (plan: SeedPlan) => {
  const mix = tenderMix(plan);
  return (
    plan.frameworks * (2 + SUPPLIER_KEYS.length * 3 + 1) +
    mix.active * 3 +
    mix.drafts +
    mix.competitiveOrdering * (2 + BIDS_PER_TENDER) +
    mix.cancelled * CANCELLATION_STEPS +
    timedSteps(TIMED_STATES.slice(0, mix.timed)) +
    plan.plans +
    mix.fromPlans
  );
};

/** Bids on every competitiveOrdering tender. */
const BIDS_PER_TENDER = 2;

/** Requests of the cancelled tender: create, activate, a draft cancellation, its document, its activation. */
const CANCELLATION_STEPS = 5;

/** A multipart body with one `file` field, as the document routes take it. */
async function multipartFile(name: string, content: string): Promise<{ raw: string; contentType: string }> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  const encoded = new Response(form);
  return { contentType: encoded.headers.get('content-type')!, raw: await encoded.text() };
}

/** The plan a tender body comes from: the same buyer and CPV class, a budget of this year with its breakdown. */
function planOf(tender: any, now: Date, n: number) {
  const { name, identifier, address, kind } = tender.procuringEntity;
  const organization = { name, identifier, address, kind: kind ?? 'general' };
  const year = now.getUTCFullYear();
  const amount = tender.value.amount;
  return {
    tender: {
      procurementMethod: 'open',
      procurementMethodType: 'belowThreshold',
      tenderPeriod: { startDate: new Date(now.getTime() + 10 * 86_400_000).toISOString() },
    },
    classification: tender.items[0].classification,
    items: tender.items.map(({ description, classification, additionalClassifications, quantity }: any) => ({
      description,
      classification,
      additionalClassifications,
      quantity,
    })),
    procuringEntity: organization,
    buyers: [organization],
    budget: {
      id: `budget-${n + 1}`,
      description: `Річний план закупівель №${n + 1}`,
      amount,
      currency: tender.value.currency,
      period: { startDate: `${year}-01-01T00:00:00+02:00`, endDate: `${year}-12-31T00:00:00+02:00` },
      breakdown: [{ title: 'local', value: { amount, currency: tender.value.currency } }],
    },
  };
}

export interface SeedResult {
  frameworks: string[];
  agreements: string[];
  tenders: string[];
  contracts: string[];
  plans: string[];
  /** Tenders cancelled by their owner. */
  cancelled: string[];
  /** Tenders taken through their periods in seconds: unsuccessful, in auction, in qualification, awarded, complete. */
  timed: string[];
}

/**
 * Fills a registry through its HTTP API as brokers would: frameworks (every second one a defense framework with
 * restricted derivatives) with three submissions each, their qualifications activated so the framework's
 * agreement exists; belowThreshold tenders (drafts among them); a competitiveOrdering tender against each
 * agreement (restricted for the defense ones) with two bids of its suppliers; a contract for each active belowThreshold tender, posted as the
 * contracting system; a belowThreshold tender cancelled by its owner; belowThreshold plans, every other one with a
 * draft tender created from it; on a SANDBOX_MODE node, tenders unsuccessful, in their auction, in qualification,
 * awarded and complete (`seedTimedStates`).
 */
export async function seed(baseUrl: string, plan: SeedPlan, step: () => void): Promise<SeedResult> {
  const jar = new CookieJar();
  const call = async (method: string, path: string, options: RequestOptions, expected: number): Promise<Reply> => {
    const reply = await request(baseUrl, method, `/api/2.5${path}`, { jar, ...options });
    if (reply.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${reply.status} ${reply.text}`);
    step();
    return reply;
  };
  const result: SeedResult = { frameworks: [], agreements: [], tenders: [], contracts: [], plans: [], cancelled: [], timed: [] };
  const now = new Date();
  const bodies = requestBodies(now.getTime());

  for (let f = 0; f < plan.frameworks; f++) {
    const defense = isDefense(f);
    const data = aFramework(
      now,
      defense ? { procuringEntity: aProcuringEntity({ kind: 'defense' }), title: `Оборонна закупівля ${f + 1}` } : {},
    );
    const config = defense ? { restrictedDerivatives: true } : undefined;
    const created = await call('POST', '/frameworks', { key: 'broker', body: { data, ...(config ? { config } : {}) } }, 201);
    const framework = { id: created.body.data.id as string, token: created.body.access.token as string };
    await call(
      'PATCH',
      `/frameworks/${framework.id}`,
      { key: 'broker', token: framework.token, body: { data: { status: 'active' } } },
      200,
    );
    for (const [i, key] of SUPPLIER_KEYS.entries()) {
      const tenderer = aTenderer(`2000${f}${i}00`, { name: `Постачальник ${f + 1}.${i + 1}` });
      const submission = await call(
        'POST',
        '/submissions',
        { key, body: { data: { tenderers: [tenderer], frameworkID: framework.id } } },
        201,
      );
      const activated = await call(
        'PATCH',
        `/submissions/${submission.body.data.id}`,
        { key, token: submission.body.access.token, body: { data: { status: 'active' } } },
        200,
      );
      await call(
        'PATCH',
        `/qualifications/${activated.body.data.qualificationID}`,
        { key: 'broker', token: framework.token, body: { data: { status: 'active' } } },
        200,
      );
    }
    const read = await call('GET', `/frameworks/${framework.id}`, { key: 'broker' }, 200);
    result.frameworks.push(framework.id);
    result.agreements.push(read.body.data.agreementID);
  }

  const mix = tenderMix(plan);
  const activeTenders: string[] = [];
  for (let n = 0; n < mix.active + mix.drafts; n++) {
    const draft = n >= mix.active;
    const body = { data: { ...bodies.tender.data, title: `${bodies.tender.data.title} №${n + 1}` }, config: belowThresholdConfig() };
    const key = 'broker';
    const created = await call('POST', '/tenders', { key, body }, 201);
    if (!draft) {
      await call(
        'PATCH',
        `/tenders/${created.body.data.id}`,
        { key, token: created.body.access.token, body: bodies.tenderActivation },
        200,
      );
      activeTenders.push(created.body.data.id);
    }
    result.tenders.push(created.body.data.id);
  }

  for (const [f, agreementId] of result.agreements.slice(0, mix.competitiveOrdering).entries()) {
    const restricted = isDefense(f);
    const key = restricted ? 'brokerr' : 'broker';
    const { enquiryPeriod: _computedByServer, ...common } = bodies.tender.data;
    const data: Record<string, any> = {
      ...common,
      procurementMethodType: 'competitiveOrdering',
      procuringEntity: aProcuringEntity(),
      agreements: [{ id: agreementId }],
    };
    const created = await call('POST', '/tenders', { key, body: { data, config: competitiveOrderingConfig({ restricted }) } }, 201);
    const active = await call(
      'PATCH',
      `/tenders/${created.body.data.id}`,
      { key, token: created.body.access.token, body: { data: { status: 'active.tendering' } } },
      200,
    );
    // Tendering with bids (docs/tenders.md §Bids): two of the agreement's suppliers bid on its lot, answering the
    // criteria activation added (docs/tenders.md §Requirement responses).
    const requirementResponses = answersTo(active.body.data.criteria);
    for (const [i, bidderKey] of SUPPLIER_KEYS.slice(0, BIDS_PER_TENDER).entries()) {
      const tenderer = aTenderer(`2000${f}${i}00`, { name: `Постачальник ${f + 1}.${i + 1}` });
      const lotValues = (data.lots as { id: string }[]).map((lot) => ({ relatedLot: lot.id, value: { amount: 400 - 10 * i } }));
      await call(
        'POST',
        `/tenders/${created.body.data.id}/bids`,
        { key: bidderKey, body: { data: { tenderers: [tenderer], lotValues, requirementResponses, status: 'pending' } } },
        201,
      );
    }
    result.tenders.push(created.body.data.id);
  }

  for (const tenderId of activeTenders) {
    const supplier = aTenderer('30000000', { name: 'ТОВ «Переможець»' });
    const created = await call(
      'POST',
      '/contracts',
      { key: 'contracting', body: { data: { tender_id: tenderId, suppliers: [supplier] } } },
      201,
    );
    result.contracts.push(created.body.data.id);
  }

  for (let n = 0; n < plan.plans; n++) {
    const created = await call('POST', '/plans', { key: 'broker', body: { data: planOf(bodies.tender.data, now, n) } }, 201);
    result.plans.push(created.body.data.id);
    if (n % 2 === 1 || n / 2 >= mix.fromPlans) continue;
    const body = { data: { ...bodies.tender.data, title: `Закупівля за планом №${n + 1}` }, config: belowThresholdConfig() };
    const tender = await call('POST', `/plans/${created.body.data.id}/tenders`, { key: 'broker', body }, 201);
    result.tenders.push(tender.body.data.id);
  }

  if (mix.cancelled) result.cancelled.push(await seedCancelled(call, bodies));
  result.tenders.push(...result.cancelled);
  if (mix.timed) {
    result.timed = await seedTimedStates(call, bodies.tender.data, bodies.tenderActivation, TIMED_STATES.slice(0, mix.timed));
    result.tenders.push(...result.timed);
  }
  return result;
}

/** A tender cancelled by its owner (docs/tenders.md §Cancellations): a draft cancellation, its notice, then active. */
async function seedCancelled(
  call: (method: string, path: string, options: RequestOptions, expected: number) => Promise<Reply>,
  bodies: ReturnType<typeof requestBodies>,
): Promise<string> {
  const body = { data: { ...bodies.tender.data, title: `${bodies.tender.data.title} (скасована)` }, config: belowThresholdConfig() };
  const created = await call('POST', '/tenders', { key: 'broker', body }, 201);
  const tender = { id: created.body.data.id as string, token: created.body.access.token as string };
  await call('PATCH', `/tenders/${tender.id}`, { key: 'broker', token: tender.token, body: bodies.tenderActivation }, 200);
  const cancellations = `/tenders/${tender.id}/cancellations`;
  const cancellation = await call(
    'POST',
    cancellations,
    { key: 'broker', token: tender.token, body: { data: { reason: 'Відсутність потреби', reasonType: 'noDemand' } } },
    201,
  );
  const path = `${cancellations}/${cancellation.body.data.id}`;
  await call(
    'POST',
    `${path}/documents`,
    { key: 'broker', token: tender.token, ...(await multipartFile('notice.txt', 'Повідомлення про скасування')) },
    201,
  );
  await call('PATCH', path, { key: 'broker', token: tender.token, body: { data: { status: 'active' } } }, 200);
  return tender.id;
}

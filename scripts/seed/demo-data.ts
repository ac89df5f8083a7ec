import { request, CookieJar, type Reply, type RequestOptions } from '../../test/fixtures/server';
import { aFramework, aProcuringEntity, aTenderer } from '../../test/fixtures/frameworks';
import { belowThresholdConfig, competitiveOrderingConfig } from '../../test/fixtures/tenders';
import { requestBodies } from '../load/templates';

/** How big the demo set is; every framework gets three qualified suppliers and so an agreement. */
export interface SeedPlan {
  frameworks: number;
  /** belowThreshold tenders; every other one is left a draft. */
  tenders: number;
  /** belowThreshold plans; every other one gets its tender (`POST /plans/{id}/tenders`) and so is complete. */
  plans: number;
}

const SUPPLIER_KEYS = ['broker1', 'broker2', 'broker3'];
/** Every second framework is a defense one, with restricted submissions, qualifications, agreement and tender. */
const isDefense = (framework: number) => framework % 2 === 1;

/** Steps of the plan, for a progress bar that knows its total. */
export const seedSteps = (plan: SeedPlan) => {
  const active = Math.ceil(plan.tenders / 2);
  return plan.frameworks * (2 + SUPPLIER_KEYS.length * 3 + 1) + plan.tenders + active * 2 + plan.frameworks * 2 + plan.plans + Math.ceil(plan.plans / 2);
};

/** The plan a tender body comes from: the same buyer and CPV class, a budget of this year with its breakdown. */
function planOf(tender: any, now: Date, n: number) {
  const { name, identifier, address, kind } = tender.procuringEntity;
  const organization = { name, identifier, address, kind: kind ?? 'general' };
  const year = now.getUTCFullYear();
  const amount = tender.value.amount;
  return {
    tender: { procurementMethod: 'open', procurementMethodType: 'belowThreshold', tenderPeriod: { startDate: new Date(now.getTime() + 10 * 86_400_000).toISOString() } },
    classification: tender.items[0].classification,
    items: tender.items.map(({ description, classification, additionalClassifications, quantity }: any) => ({ description, classification, additionalClassifications, quantity })),
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
}

/**
 * Fills a registry through its HTTP API as brokers would: frameworks (every second one a defense framework with
 * restricted derivatives) with three submissions each, their qualifications activated so the framework's
 * agreement exists; belowThreshold tenders (drafts among them); a competitiveOrdering tender against each
 * agreement (restricted for the defense ones); a contract for each active belowThreshold tender, posted as the
 * contracting system; belowThreshold plans, every other one with a draft tender created from it.
 */
export async function seed(baseUrl: string, plan: SeedPlan, step: () => void): Promise<SeedResult> {
  const jar = new CookieJar();
  const call = async (method: string, path: string, options: RequestOptions, expected: number): Promise<Reply> => {
    const reply = await request(baseUrl, method, `/api/2.5${path}`, { jar, ...options });
    if (reply.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${reply.status} ${reply.text}`);
    step();
    return reply;
  };
  const result: SeedResult = { frameworks: [], agreements: [], tenders: [], contracts: [], plans: [] };
  const now = new Date();
  const bodies = requestBodies(now.getTime());

  for (let f = 0; f < plan.frameworks; f++) {
    const defense = isDefense(f);
    const data = aFramework(now, defense ? { procuringEntity: aProcuringEntity({ kind: 'defense' }), title: `Оборонна закупівля ${f + 1}` } : {});
    const config = defense ? { restrictedDerivatives: true } : undefined;
    const created = await call('POST', '/frameworks', { key: 'broker', body: { data, ...(config ? { config } : {}) } }, 201);
    const framework = { id: created.body.data.id as string, token: created.body.access.token as string };
    await call('PATCH', `/frameworks/${framework.id}`, { key: 'broker', token: framework.token, body: { data: { status: 'active' } } }, 200);
    for (const [i, key] of SUPPLIER_KEYS.entries()) {
      const tenderer = aTenderer(`2000${f}${i}00`, { name: `Постачальник ${f + 1}.${i + 1}` });
      const submission = await call('POST', '/submissions', { key, body: { data: { tenderers: [tenderer], frameworkID: framework.id } } }, 201);
      const activated = await call(
        'PATCH', `/submissions/${submission.body.data.id}`, { key, token: submission.body.access.token, body: { data: { status: 'active' } } }, 200,
      );
      await call(
        'PATCH', `/qualifications/${activated.body.data.qualificationID}`, { key: 'broker', token: framework.token, body: { data: { status: 'active' } } }, 200,
      );
    }
    const read = await call('GET', `/frameworks/${framework.id}`, { key: 'broker' }, 200);
    result.frameworks.push(framework.id);
    result.agreements.push(read.body.data.agreementID);
  }

  const activeTenders: string[] = [];
  for (let n = 0; n < plan.tenders; n++) {
    const draft = n % 2 === 1;
    const body = { data: { ...bodies.tender.data, title: `${bodies.tender.data.title} №${n + 1}` }, config: belowThresholdConfig() };
    const key = 'broker';
    const created = await call('POST', '/tenders', { key, body }, 201);
    if (!draft) {
      await call('PATCH', `/tenders/${created.body.data.id}`, { key, token: created.body.access.token, body: bodies.tenderActivation }, 200);
      activeTenders.push(created.body.data.id);
    }
    result.tenders.push(created.body.data.id);
  }

  for (const [f, agreementId] of result.agreements.entries()) {
    const restricted = isDefense(f);
    const key = restricted ? 'brokerr' : 'broker';
    const { enquiryPeriod: _computedByServer, ...common } = bodies.tender.data;
    const data = { ...common, procurementMethodType: 'competitiveOrdering', procuringEntity: aProcuringEntity(), agreements: [{ id: agreementId }] };
    const created = await call('POST', '/tenders', { key, body: { data, config: competitiveOrderingConfig({ restricted }) } }, 201);
    await call('PATCH', `/tenders/${created.body.data.id}`, { key, token: created.body.access.token, body: { data: { status: 'active.tendering' } } }, 200);
    result.tenders.push(created.body.data.id);
  }

  for (const tenderId of activeTenders) {
    const supplier = aTenderer('30000000', { name: 'ТОВ «Переможець»' });
    const created = await call('POST', '/contracts', { key: 'contracting', body: { data: { tender_id: tenderId, suppliers: [supplier] } } }, 201);
    result.contracts.push(created.body.data.id);
  }

  for (let n = 0; n < plan.plans; n++) {
    const created = await call('POST', '/plans', { key: 'broker', body: { data: planOf(bodies.tender.data, now, n) } }, 201);
    result.plans.push(created.body.data.id);
    if (n % 2 === 1) continue;
    const body = { data: { ...bodies.tender.data, title: `Закупівля за планом №${n + 1}` }, config: belowThresholdConfig() };
    const tender = await call('POST', `/plans/${created.body.data.id}/tenders`, { key: 'broker', body }, 201);
    result.tenders.push(tender.body.data.id);
  }
  return result;
}

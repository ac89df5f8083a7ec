import type { Manifest } from '../load/main';
import { answersTo } from '../../test/fixtures/tenders';
import { drive, type DriveOptions } from './drive';
import type { WriteRow } from './report';

const API = '/api/2.5';
const headers = { authorization: 'Bearer broker', 'content-type': 'application/json' };

async function call(url: string, method: string, path: string, body: unknown, status: number): Promise<any> {
  const res = await fetch(`${url}${API}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/**
 * Tenders open for bids under the product's real clock: competitiveOrdering tenders are in `active.tendering` from
 * activation, on an agreement of three suppliers made through the framework endpoints (framework, three
 * submissions, three qualifications). One tender per connection, so no two bids race for one tender's revision.
 */
async function biddingTenders(
  url: string,
  manifest: Manifest,
  count: number,
): Promise<{ ids: string[]; criteria: unknown[][]; lotId: string; supplier: any }> {
  const { framework: frameworkBody, submission, tender } = manifest.bodies;
  const f = await call(url, 'POST', '/frameworks', frameworkBody, 201);
  await call(url, 'PATCH', `/frameworks/${f.data.id}?acc_token=${f.access.token}`, { data: { status: 'active' } }, 200);
  for (let i = 0; i < 3; i++) {
    const tenderers = submission.data.tenderers.map((o: any) => ({ ...o, identifier: { ...o.identifier, id: `9000000${i}` } }));
    const s = await call(
      url,
      'POST',
      '/submissions',
      { ...submission, data: { ...submission.data, tenderers, frameworkID: f.data.id } },
      201,
    );
    const a = await call(url, 'PATCH', `/submissions/${s.data.id}?acc_token=${s.access.token}`, { data: { status: 'active' } }, 200);
    await call(url, 'PATCH', `/qualifications/${a.data.qualificationID}?acc_token=${f.access.token}`, { data: { status: 'active' } }, 200);
  }
  const agreementId = (await call(url, 'GET', `/frameworks/${f.data.id}`, undefined, 200)).data.agreementID;
  const agreement = (await call(url, 'GET', `/agreements/${agreementId}`, undefined, 200)).data;
  const { enquiryPeriod: _e, ...data } = tender.data;
  const body = {
    data: {
      ...data,
      procurementMethodType: 'competitiveOrdering',
      procuringEntity: { ...agreement.procuringEntity, kind: data.procuringEntity.kind },
      agreements: [{ id: agreementId }],
    },
    config: { ...tender.config, hasPreSelectionAgreement: true, hasValueRestriction: false, hasPrequalification: false, minBidsNumber: 1 },
  };
  const ids: string[] = [];
  const criteria: unknown[][] = [];
  for (let i = 0; i < count; i++) {
    const t = await call(url, 'POST', '/tenders', body, 201);
    const active = await call(
      url,
      'PATCH',
      `/tenders/${t.data.id}?acc_token=${t.access.token}`,
      { data: { status: 'active.tendering' } },
      200,
    );
    ids.push(t.data.id);
    // Activation adds the criteria a bid must answer (docs/tenders.md §Requirement responses).
    criteria.push(active.data.criteria ?? []);
  }
  return { ids, criteria, lotId: data.lots[0].id, supplier: agreement.contracts[0].suppliers[0] };
}

/** The "bid create" row: `POST /tenders/{id}/bids` (a submitted bid on the one lot), each connection on its own tender. */
export async function bidCreateRow(d: DriveOptions, manifest: Manifest): Promise<WriteRow> {
  const scenario = 'POST bid (create)';
  let tenders: Awaited<ReturnType<typeof biddingTenders>>;
  try {
    tenders = await biddingTenders(d.url, manifest, d.connections);
  } catch (err) {
    return { scenario, result: null, note: `no tender open for bids: ${(err as Error).message}` };
  }
  const bids = tenders.criteria.map((criteria) =>
    JSON.stringify({
      data: {
        tenderers: [tenders.supplier],
        lotValues: [{ value: { amount: 100 }, relatedLot: tenders.lotId }],
        requirementResponses: answersTo(criteria),
        status: 'pending',
      },
    }),
  );
  let slots = 0;
  let created = 0;
  const result = await drive(d, {
    method: 'POST',
    headers,
    body: (ctx) => bids[ctx.slot % bids.length],
    path(ctx) {
      ctx.slot ??= slots++;
      return `${API}/tenders/${tenders.ids[ctx.slot % tenders.ids.length]}/bids`;
    },
    onResponse(status) {
      if (status === 201) created++;
    },
  });
  // A tender keeps its bids in itself (as the reference does), so each bid rewrites a tender that grows by one bid.
  return {
    scenario,
    result,
    note: `${created} bids on ${tenders.ids.length} tenders (one per connection); each tender document grows with its bids`,
  };
}

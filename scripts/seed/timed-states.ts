import { setTimeout as sleep } from 'node:timers/promises';
import { formatKyiv } from '../../src/time/kyiv';
import { playAuction } from '../auction/play-auction';
import type { Reply, RequestOptions } from '../../test/fixtures/server';
import { belowThresholdConfig, supplier } from '../../test/fixtures/tenders';

/**
 * Tenders in the states that take time — unsuccessful, in auction, in qualification — made in seconds on a node in
 * SANDBOX_MODE (docs/platform.md §Sandbox acceleration): a day of their periods lasts a second. The seed waits for
 * each period to end and asks the chronograph to run the tender's checks (the node's own timer would too).
 */
export type Call = (method: string, path: string, options: RequestOptions, expected: number) => Promise<Reply>;

/** A day of the seeded tenders' periods lasts a second. */
const ACCELERATOR = 86_400;
const ENQUIRIES_MS = 4_000;
const TENDERING_MS = 8_000;

/** The states made here, one tender each, in this order. */
export const TIMED_STATES = ['unsuccessful', 'active.auction', 'active.qualification'] as const;

/** Requests made for the timed states: per tender create, activate, two chronograph runs; two bids for each with bids; the auction's read, urls and results. */
export const TIMED_STEPS = TIMED_STATES.length * 4 + (TIMED_STATES.length - 1) * 2 + 3;

/** Whether the node takes sandbox details: without SANDBOX_MODE they are a `Rogue field` before anything else. */
export async function acceptsSandboxDetails(request: (method: string, path: string, options: RequestOptions) => Promise<Reply>): Promise<boolean> {
  const probe = await request('POST', '/tenders', { key: 'broker', body: { data: { procurementMethodDetails: 'quick' } } });
  return !(probe.status === 422 && probe.body?.errors?.[0]?.name === 'procurementMethodDetails');
}

/** A bid on every lot of `tender` by the n-th demo bidder. */
const aBid = (tender: { lots: { id: string }[] }, n: number) => ({
  tenderers: [supplier(`Учасник ${n}`, `4000000${n}`)],
  lotValues: tender.lots.map((lot) => ({ relatedLot: lot.id, value: { amount: 450 - 10 * n } })),
  status: 'pending',
});

/** Makes one tender in each of `TIMED_STATES`; answers their ids. */
export async function seedTimedStates(call: Call, tenderData: Record<string, any>, activation: unknown): Promise<string[]> {
  const start = Date.now();
  const data: Record<string, any> = {
    ...tenderData,
    procurementMethodDetails: `quick, accelerator=${ACCELERATOR}`,
    enquiryPeriod: { endDate: formatKyiv(new Date(start + ENQUIRIES_MS)) },
    tenderPeriod: { endDate: formatKyiv(new Date(start + TENDERING_MS)) },
  };
  const tenders: { id: string; token: string; state: (typeof TIMED_STATES)[number]; lots: { id: string }[] }[] = [];
  for (const state of TIMED_STATES) {
    const created = await call('POST', '/tenders', { key: 'broker', body: { data: { ...data, title: `${data.title} (${state})` }, config: belowThresholdConfig() } }, 201);
    const tender = { id: created.body.data.id, token: created.body.access.token, state, lots: created.body.data.lots };
    await call('PATCH', `/tenders/${tender.id}`, { key: 'broker', token: tender.token, body: activation }, 200);
    tenders.push(tender);
  }
  const chronograph = (id: string) => call('PATCH', `/tenders/${id}/chronograph`, { key: 'chronograph', body: { data: { id } } }, 200);

  await sleep(start + ENQUIRIES_MS + 500 - Date.now());
  for (const tender of tenders) {
    await chronograph(tender.id);
    if (tender.state === 'unsuccessful') continue;
    for (const [n, key] of [[1, 'broker1'], [2, 'broker2']] as const) {
      await call('POST', `/tenders/${tender.id}/bids`, { key, body: { data: aBid(tender, n) } }, 201);
    }
  }

  await sleep(start + TENDERING_MS + 500 - Date.now());
  for (const tender of tenders) await chronograph(tender.id);
  const auctioned = tenders.find((t) => t.state === 'active.qualification')!;
  const request = async (method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown) => {
    const reply = await call(method, path.replace(/^\/api\/2\.5/, ''), { key: 'auction', body }, 200);
    return { status: reply.status, body: reply.body };
  };
  await playAuction({ request, auctionBase: 'https://auction.example.org' }, auctioned.id);
  return tenders.map((t) => t.id);
}

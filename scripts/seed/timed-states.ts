import { setTimeout as sleep } from 'node:timers/promises';
import { formatKyiv } from '../../src/time/kyiv';
import { playAuction } from '../auction/play-auction';
import type { Reply, RequestOptions } from '../../test/fixtures/server';
import { belowThresholdConfig, supplier } from '../../test/fixtures/tenders';

/**
 * Tenders in the states that take time — unsuccessful, in auction, in qualification, awarded, complete — made in seconds on a node in
 * SANDBOX_MODE (docs/platform.md §Sandbox acceleration): a day of their periods lasts a second. The seed waits for
 * each period to end and asks the chronograph to run the tender's checks (the node's own timer would too).
 */
export type Call = (method: string, path: string, options: RequestOptions, expected: number) => Promise<Reply>;

/** A day of the seeded tenders' periods lasts a second. */
const ACCELERATOR = 86_400;
const ENQUIRIES_MS = 4_000;
const TENDERING_MS = 8_000;

/** The states made here, one tender each, in this order. */
export const TIMED_STATES = ['unsuccessful', 'active.auction', 'active.qualification', 'active.awarded', 'complete'] as const;
export type TimedState = (typeof TIMED_STATES)[number];
const AUCTIONED: TimedState[] = ['active.qualification', 'active.awarded', 'complete'];
const AWARDED: TimedState[] = ['active.awarded', 'complete'];

/**
 * Requests made for `states`: per tender create, activate, two chronograph runs; two bids for each but the
 * unsuccessful one; the auction's read, urls and results; the award read and decided; the contract's two signers and
 * its signing after a read.
 */
export const timedSteps = (states: readonly TimedState[]) =>
  states.reduce(
    (steps, state) =>
      steps +
      4 +
      (state === 'unsuccessful' ? 0 : 2) +
      (AUCTIONED.includes(state) ? 3 : 0) +
      (AWARDED.includes(state) ? 2 : 0) +
      (state === 'complete' ? 4 : 0),
    0,
  );

/** Whether the node takes sandbox details: without SANDBOX_MODE they are a `Rogue field` before anything else. */
export async function acceptsSandboxDetails(
  request: (method: string, path: string, options: RequestOptions) => Promise<Reply>,
): Promise<boolean> {
  const probe = await request('POST', '/tenders', { key: 'broker', body: { data: { procurementMethodDetails: 'quick' } } });
  return !(probe.status === 422 && probe.body?.errors?.[0]?.name === 'procurementMethodDetails');
}

/** A bid on every lot of `tender` by the n-th demo bidder. */
const aBid = (tender: { lots: { id: string }[] }, n: number) => ({
  tenderers: [supplier(`Учасник ${n}`, `4000000${n}`)],
  lotValues: tender.lots.map((lot) => ({ relatedLot: lot.id, value: { amount: 450 - 10 * n } })),
  status: 'pending',
});

/** Makes one tender in each of `states`; answers their ids. */
export async function seedTimedStates(
  call: Call,
  tenderData: Record<string, any>,
  activation: unknown,
  states: readonly TimedState[],
): Promise<string[]> {
  const start = Date.now();
  const data: Record<string, any> = {
    ...tenderData,
    procurementMethodDetails: `quick, accelerator=${ACCELERATOR}`,
    enquiryPeriod: { endDate: formatKyiv(new Date(start + ENQUIRIES_MS)) },
    tenderPeriod: { endDate: formatKyiv(new Date(start + TENDERING_MS)) },
  };
  const tenders: { id: string; token: string; state: TimedState; lots: { id: string }[]; winner?: { token: string } }[] = [];
  for (const state of states) {
    const created = await call(
      'POST',
      '/tenders',
      { key: 'broker', body: { data: { ...data, title: `${data.title} (${state})` }, config: belowThresholdConfig() } },
      201,
    );
    const tender = { id: created.body.data.id, token: created.body.access.token, state, lots: created.body.data.lots };
    await call('PATCH', `/tenders/${tender.id}`, { key: 'broker', token: tender.token, body: activation }, 200);
    tenders.push(tender);
  }
  const chronograph = (id: string) => call('PATCH', `/tenders/${id}/chronograph`, { key: 'chronograph', body: { data: { id } } }, 200);

  await sleep(start + ENQUIRIES_MS + 500 - Date.now());
  for (const tender of tenders) {
    await chronograph(tender.id);
    if (tender.state === 'unsuccessful') continue;
    for (const [n, key] of [
      [1, 'broker1'],
      [2, 'broker2'],
    ] as const) {
      const bid = await call('POST', `/tenders/${tender.id}/bids`, { key, body: { data: aBid(tender, n) } }, 201);
      tender.winner = { token: bid.body.access.token }; // the second bid is the lower one
    }
  }

  await sleep(start + TENDERING_MS + 500 - Date.now());
  for (const tender of tenders) await chronograph(tender.id);
  const request = async (method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown) => {
    const reply = await call(method, path.replace(/^\/api\/2\.5/, ''), { key: 'auction', body }, 200);
    return { status: reply.status, body: reply.body };
  };
  for (const tender of tenders.filter((t) => AUCTIONED.includes(t.state))) {
    await playAuction({ request, auctionBase: 'https://auction.example.org' }, tender.id);
  }
  for (const tender of tenders.filter((t) => AWARDED.includes(t.state))) await award(call, tender, tender.state === 'complete');
  return tenders.map((t) => t.id);
}

const SIGNER = {
  email: 'signer@example.com',
  telephone: '+380440000001',
  iban: 'UA213223130000026007233566001',
  position: 'Директор',
  authorizedBy: 'Статут',
};

/** The owner activates the pending award (docs/tenders.md §Awards); with `sign`, both signers and the owner sign its contract. */
async function award(call: Call, tender: { id: string; token: string; winner?: { token: string } }, sign: boolean): Promise<void> {
  const owner = { key: 'broker', token: tender.token };
  const read = async () => (await call('GET', `/tenders/${tender.id}`, {}, 200)).body.data;
  const pending = (await read()).awards.find((a: { status: string }) => a.status === 'pending');
  await call(
    'PATCH',
    `/tenders/${tender.id}/awards/${pending.id}`,
    { ...owner, body: { data: { status: 'active', qualified: true } } },
    200,
  );
  if (!sign) return;
  const contract = (await read()).contracts.find((c: { status: string }) => c.status === 'pending');
  const path = `/contracts/${contract.id}`;
  await call('PUT', `${path}/buyer/signer_info`, { ...owner, body: { data: { ...SIGNER, name: 'Замовник' } } }, 200);
  await call(
    'PUT',
    `${path}/suppliers/signer_info`,
    { key: 'broker2', token: tender.winner!.token, body: { data: { ...SIGNER, name: 'Постачальник' } } },
    200,
  );
  await call('PATCH', path, { ...owner, body: { data: { status: 'active' } } }, 200);
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { Manifest } from '../load/main';
import { playAuction } from '../auction/play-auction';
import { aSigner } from '../../test/fixtures/awards';
import { driveChain, type DriveOptions, type Step } from './drive';
import type { WriteRow } from './report';

const API = '/api/2.5';
/**
 * The sandbox speed-up of the chain's tenders (docs/platform.md §Sandbox acceleration): a million, so the 3
 * working days of enquiries and 2 of tendering the belowThreshold rules ask for take a fraction of a second.
 */
const ACCELERATOR = 1_000_000;
const ENQUIRIES_MS = 500;
const TENDERING_MS = 1_500;

/** A bid of `share` of each lot's value (or the tender's), by a tenderer of its own. */
function bidOf(tender: any, share: number, n: number): unknown {
  const tenderer = { ...tender.procuringEntity, identifier: { ...tender.procuringEntity.identifier, id: `7000000${n}` }, scale: 'micro' };
  delete tenderer.kind;
  const value = (of: any) => ({ amount: Math.floor(of.value.amount * share) });
  const offer = tender.lots?.length
    ? { lotValues: tender.lots.map((l: any) => ({ value: value(l), relatedLot: l.id })) }
    : { value: value(tender) };
  return { data: { tenderers: [tenderer], ...offer, status: 'pending' } };
}

/**
 * One belowThreshold tender's whole life through the API: created and activated (sandbox-accelerated), the
 * chronograph at the end of enquiries, two bids, the chronograph at the end of tendering, the project's auction
 * module, the winner's award activated, both signers named, the contract signed; the tender is then `complete`
 * (docs/tenders.md §Bids, §Auction, §Awards, §Contracts of a tender). The two waits for the periods are part of it.
 */
async function lifecycle(call: (step: Step) => Promise<any>, manifest: Manifest): Promise<void> {
  const start = Date.now();
  const iso = (ms: number) => new Date(start + ms).toISOString();
  const { enquiryPeriod: _e, tenderPeriod: _t, ...data } = manifest.bodies.tender.data;
  const body = {
    data: {
      ...data,
      procurementMethodDetails: `quick, accelerator=${ACCELERATOR}`,
      enquiryPeriod: { endDate: iso(ENQUIRIES_MS) },
      tenderPeriod: { endDate: iso(TENDERING_MS) },
    },
    config: { ...manifest.bodies.tender.config, minBidsNumber: 1 },
  };
  const t = await call({ method: 'POST', path: `${API}/tenders`, body, status: 201 });
  const id = t.data.id as string;
  const owner = `acc_token=${t.access.token}`;
  await call({ method: 'PATCH', path: `${API}/tenders/${id}?${owner}`, body: { data: { status: 'active.enquiries' } }, status: 200 });
  const chronograph = () =>
    call({ method: 'PATCH', path: `${API}/tenders/${id}/chronograph`, key: 'chronograph', body: { data: { id } }, status: 200 });
  await sleep(Math.max(0, start + ENQUIRIES_MS + 20 - Date.now()));
  await chronograph();
  const bids = [];
  for (const [n, share] of [
    [1, 0.9],
    [2, 0.8],
  ] as const)
    bids.push(
      await call({ method: 'POST', path: `${API}/tenders/${id}/bids`, key: 'broker1', body: bidOf(t.data, share, n), status: 201 }),
    );
  await sleep(Math.max(0, start + TENDERING_MS + 20 - Date.now()));
  await chronograph();
  const request = async (method: string, path: string, payload?: unknown) => ({
    status: 200,
    body: await call({ method, path, key: 'auction', body: payload, status: 200 }),
  });
  await playAuction({ request, auctionBase: 'https://auction.example.org' }, id);
  const awarded = (await call({ method: 'GET', path: `${API}/tenders/${id}`, status: 200 })).data;
  for (const award of awarded.awards.filter((a: any) => a.status === 'pending')) {
    await call({
      method: 'PATCH',
      path: `${API}/tenders/${id}/awards/${award.id}?${owner}`,
      body: { data: { status: 'active', qualified: true } },
      status: 200,
    });
  }
  const winner = bids[1];
  for (const contract of (await call({ method: 'GET', path: `${API}/tenders/${id}/contracts`, status: 200 })).data) {
    const path = `${API}/contracts/${contract.id}`;
    await call({ method: 'PUT', path: `${path}/buyer/signer_info?${owner}`, body: { data: aSigner('Замовник') }, status: 200 });
    await call({
      method: 'PUT',
      path: `${path}/suppliers/signer_info?acc_token=${winner.access.token}`,
      key: 'broker1',
      body: { data: aSigner('Постачальник') },
      status: 200,
    });
    await call({ method: 'PATCH', path: `${path}?${owner}`, body: { data: { status: 'active' } }, status: 200 });
  }
  const done = (await call({ method: 'GET', path: `${API}/tenders/${id}`, status: 200 })).data;
  if (done.status !== 'complete') throw new Error(`tender ${id} ended ${done.status}, not complete`);
}

/** The "lifecycle chain" row: tender → 2 bids → auction → award → contract → complete, chains/s and CPU per request. */
export async function lifecycleChainRow(d: DriveOptions, manifest: Manifest): Promise<WriteRow> {
  const chain = await driveChain(d, (call) => lifecycle(call, manifest));
  return {
    scenario: 'lifecycle chain: tender → 2 bids → auction → award → contract → complete',
    result: chain.failure ? null : chain,
    note: chain.failure
      ? `stopped: ${chain.failure}`
      : `${chain.chains} chains, ${chain.requests} requests (${(chain.requests / Math.max(1, chain.chains)).toFixed(0)} a chain); each chain waits ${TENDERING_MS} ms for its accelerated periods`,
  };
}

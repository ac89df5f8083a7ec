/**
 * The project's own auction module (docs/tenders.md §Auction): it plays a tender's auction through the registry's
 * auction API, as the reference's external auction service does, so the lifecycle runs end to end without one.
 * The auction is one sealed round: each bid's value as submitted is its final value (the registry then awards
 * the lowest). It reads the bids (`GET /auction`), publishes the auction and participation URLs
 * (`PATCH /auction[/{lot_id}]`) and reports the results (`POST /auction[/{lot_id}]`), lot by lot.
 */

type Json = Record<string, any>;

/** One request to the registry as the auction group: resolves to the response's status and JSON body. */
export type AuctionRequest = (method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown) => Promise<{ status: number; body: Json }>;

export interface AuctionModule {
  request: AuctionRequest;
  /** Where the auction pages live: `{auctionBase}/tenders/{tender_id}[_{lot_id}]`. */
  auctionBase: string;
}

async function call(module: AuctionModule, method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown): Promise<Json> {
  const res = await module.request(method, path, body === undefined ? undefined : { data: body });
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Lots that still wait for their auction: active, planned (an auction period) and not yet over. */
const waitingLots = (tender: Json): Json[] =>
  (tender.lots ?? []).filter((l: Json) => l.status === 'active' && l.auctionPeriod && !l.auctionPeriod.endDate);

/** The urls of a lot's auction, for every bid position (entries of other lots only name their lot). */
function lotUrls(tender: Json, lot: Json, page: string): Json {
  return {
    lots: tender.lots.map((l: Json) => (l.id === lot.id ? { id: l.id, auctionUrl: page } : { id: l.id })),
    bids: tender.bids.map((b: Json) => ({
      id: b.id,
      lotValues: (b.lotValues ?? []).map((v: Json) =>
        v.relatedLot === lot.id
          ? { relatedLot: v.relatedLot, participationUrl: `${page}?key_for_bid=${b.id}` }
          : { relatedLot: v.relatedLot },
      ),
    })),
  };
}

/** One sealed round: the final value of each bid's value for the lot is the value it was submitted with. */
function lotResults(tender: Json, lot: Json): Json {
  return {
    bids: tender.bids.map((b: Json) => ({
      id: b.id,
      lotValues: (b.lotValues ?? []).map((v: Json) =>
        v.relatedLot === lot.id && v.value ? { relatedLot: v.relatedLot, value: { amount: v.value.amount } } : { relatedLot: v.relatedLot },
      ),
    })),
  };
}

/**
 * Plays the auction of one tender if it is in `active.auction`: every waiting lot (or the tender without lots).
 * Answers whether it reported anything; a tender past its auction is left alone.
 */
export async function playAuction(module: AuctionModule, tenderId: string): Promise<boolean> {
  const path = `/api/2.5/tenders/${tenderId}/auction`;
  // The registry refuses (403) the auction of a tender no longer in active.auction: nothing to play.
  const read = await module.request('GET', path);
  if (read.status === 403) return false;
  if (read.status !== 200) throw new Error(`GET ${path} → ${read.status} ${JSON.stringify(read.body)}`);
  let tender: Json = read.body.data;
  const page = `${module.auctionBase}/tenders/${tenderId}`;
  if (!tender.lots?.length) {
    await call(module, 'PATCH', path, {
      auctionUrl: page,
      bids: tender.bids.map((b: Json) => ({ id: b.id, participationUrl: `${page}?key_for_bid=${b.id}` })),
    });
    await call(module, 'POST', path, {
      bids: tender.bids.map((b: Json) => ({ id: b.id, ...(b.value ? { value: { amount: b.value.amount } } : {}) })),
    });
    return true;
  }
  for (const lot of waitingLots(tender)) {
    await call(module, 'PATCH', `${path}/${lot.id}`, lotUrls(tender, lot, `${page}_${lot.id}`));
    tender = await call(module, 'POST', `${path}/${lot.id}`, lotResults(tender, lot));
  }
  return true;
}

import type { Doc } from '../domain/core/object-doc';
import { ocidOf, releaseIdOf } from './ocds-option';
import { Parties } from './parties';
import { documentsOf, itemsOf, milestonesOf, periodOf, valueOf } from './parts';
import { planning, planningProcess } from './plan-release';
import { prune } from './prune';

/** OCDS's closed `tenderStatus` list; any other status (`draft`, `active.tendering`...) is `active`, as the reference maps it. */
const TENDER_STATUSES = ['planning', 'planned', 'active', 'cancelled', 'unsuccessful', 'complete', 'withdrawn'];
/** The reference's award criteria kept as they are; any other is `ratedCriteria`. */
const AWARD_CRITERIA = [
  'priceOnly',
  'costOnly',
  'qualityOnly',
  'ratedCriteria',
  'lowestCost',
  'bestProposal',
  'bestValueToGovernment',
  'singleBidOnly',
];

/** A bid as the bid extension's `bidStatus` list names it, as the reference maps it. */
function bidStatusOf(status: string | undefined): string {
  if (status?.includes('invalid')) return 'disqualified';
  if (status === 'active') return 'valid';
  if (status === 'deleted') return 'withdrawn';
  return 'pending';
}

/** The bids of a lot, each with that lot's value and date, or every bid of a tender without lots. */
function bidsOf(tender: Doc, lotId?: string): Doc[] {
  const bids: Doc[] = tender.bids ?? [];
  if (!lotId) return bids;
  return bids.flatMap((bid) => {
    const lotValue = (bid.lotValues ?? []).find((lv: Doc) => lv.relatedLot === lotId);
    return lotValue ? [{ ...bid, date: lotValue.date ?? bid.date, value: lotValue.value ?? bid.value }] : [];
  });
}

/**
 * The releases of a tender as a reader sees it (docs/ocds.md §Tenders): one per lot, or one for a tender without
 * lots, as the reference's `ocds_format_tender`; `plan` is the plan the tender came from, when there is one.
 */
export function tenderReleases(tender: Doc, plan?: Doc): Doc[] {
  const lots: Doc[] = tender.lots ?? [];
  return lots.length ? lots.map((lot) => tenderRelease(tender, plan, lot)) : [tenderRelease(tender, plan)];
}

function tenderRelease(tender: Doc, plan: Doc | undefined, lot?: Doc): Doc {
  const lotId: string | undefined = lot?.id;
  const items: Doc[] = (tender.items ?? []).filter((i: Doc) => !lotId || i.relatedLot === lotId);
  const lotScope = lotId ? { id: lotId, itemIds: items.map((i) => i.id) } : undefined;
  const parties = new Parties();
  const pe: Doc = tender.procuringEntity;
  const buyer = parties.add(pe, 'buyer', 'procuringEntity');
  parties.add(pe, 'procuringEntity', 'procuringEntity');
  const bids = bidsOf(tender, lotId);
  const tenderers = bids.flatMap((bid) => tendererReferences(parties, bid));
  const awards = (tender.awards ?? []).filter((a: Doc) => !lotId || a.lotID === lotId);
  const awardIds = awards.map((a: Doc) => a.id);
  const contracts = (tender.contracts ?? []).filter((c: Doc) => awardIds.includes(c.awardID));
  // A cancelled tender leaves its lots' statuses as they were (docs/ocds.md §Tenders).
  const status = tender.status === 'cancelled' ? 'cancelled' : (lot?.status ?? tender.status);
  const questions = (tender.questions ?? []).filter(
    (q: Doc) => !lotId || q.questionOf === 'tender' || q.relatedItem === lotId || lotScope?.itemIds.includes(q.relatedItem),
  );
  const base = lotId ? `${tender.id}-${lotId}` : tender.id;

  const release: Doc = {
    ocid: ocidOf(tender.id, lotId),
    id: releaseIdOf(base, tender.dateModified),
    date: tender.dateModified,
    tag: tagsOf(status, plan, awards, contracts),
    initiationType: 'tender',
    parties: [],
    buyer,
    planning: plan && planning(plan),
    tender: {
      id: tender.id,
      title: lot?.title || tender.title,
      description: lot?.description || tender.description,
      status: TENDER_STATUSES.includes(status) ? status : 'active',
      procuringEntity: buyer,
      items: itemsOf(items),
      value: valueOf(lot?.value ?? tender.value),
      procurementMethod: tender.procurementMethod,
      procurementMethodDetails: tender.procurementMethodType,
      procurementMethodRationale: tender.procurementMethodRationale,
      mainProcurementCategory: tender.mainProcurementCategory,
      awardCriteria: AWARD_CRITERIA.includes(tender.awardCriteria) ? tender.awardCriteria : 'ratedCriteria',
      awardCriteriaDetails: tender.awardCriteriaDetails,
      submissionMethod: tender.submissionMethod ? [tender.submissionMethod] : undefined,
      tenderPeriod: periodOf(tender.tenderPeriod),
      enquiryPeriod: periodOf(tender.enquiryPeriod ?? tender.tenderPeriod),
      hasEnquiries: questions.length > 0,
      eligibilityCriteria: tender.eligibilityCriteria,
      awardPeriod: periodOf(lot?.awardPeriod ?? tender.awardPeriod),
      contractPeriod: periodOf(tender.contractPeriod),
      numberOfTenderers: bids.length,
      tenderers: uniqueReferences(tenderers),
      documents: documentsOf(tender.documents, lotScope),
      milestones: milestonesOf(tender.milestones, lotId),
    },
    awards: awards.map((award: Doc) => ({
      id: award.id,
      title: award.title,
      description: award.description,
      status: award.status,
      date: award.date,
      value: valueOf(award.value),
      suppliers: supplierReferences(parties, award.suppliers ?? bidTenderers(tender, award.bid_id), award.id),
      items: itemsOf(items),
      documents: documentsOf(award.documents),
    })),
    contracts: contracts.map((contract: Doc) => {
      supplierReferences(parties, contract.suppliers, contract.awardID);
      return contractOf(contract);
    }),
    relatedProcesses: plan ? [planningProcess(plan)] : undefined,
    bids: bids.length ? bidsSection(bids, parties, lotScope) : undefined,
  };
  release.parties = parties.list();
  return prune(release);
}

/** What a release carries: `tender` always (the reference's only tag), and the stages it reached. */
function tagsOf(status: string, plan: Doc | undefined, awards: Doc[], contracts: Doc[]): string[] {
  return [
    ...(plan ? ['planning'] : []),
    'tender',
    ...(status === 'cancelled' ? ['tenderCancellation'] : []),
    ...(awards.length ? ['award'] : []),
    ...(contracts.length ? ['contract'] : []),
  ];
}

/** A bid's tenderers as parties; hidden ones are named by the bid, as the reference names every tenderer. */
const tendererReferences = (parties: Parties, bid: Doc): Doc[] =>
  (bid.tenderers ?? []).map((org: Doc, n: number) => parties.add(org, 'tenderer', n ? `${bid.id}-${n}` : bid.id)!);

const bidTenderers = (tender: Doc, bidId: string | undefined): Doc[] | undefined =>
  (tender.bids ?? []).find((bid: Doc) => bid.id === bidId)?.tenderers?.slice(0, 1);

function supplierReferences(parties: Parties, suppliers: Doc[] | undefined, fallback: string): Doc[] {
  return (suppliers ?? []).map((org, n) => parties.add(org, 'supplier', n ? `${fallback}-${n}` : fallback)!);
}

const uniqueReferences = (references: Doc[]) => [...new Map(references.map((r) => [r.id, r])).values()];

/** An OCDS `Contract` from a tender's contract or from a contract object (docs/ocds.md §Contracts). */
export function contractOf(contract: Doc): Doc {
  return {
    id: contract.id,
    awardID: contract.awardID,
    title: contract.title,
    description: contract.description,
    status: contract.status,
    period: periodOf(contract.period),
    value: valueOf(contract.value),
    items: contract.items ? itemsOf(contract.items) : undefined,
    dateSigned: contract.dateSigned,
    documents: documentsOf(contract.documents),
    amendments: (contract.changes ?? [])
      .filter((change: Doc) => change.status === 'active')
      .map((change: Doc) => ({ id: change.id, date: change.dateSigned ?? change.date, rationale: change.rationale })),
  };
}

/** The bid extension's `bids`: how many were received, and each as the reader sees it. */
function bidsSection(bids: Doc[], parties: Parties, lotScope: { id: string; itemIds: string[] } | undefined): Doc {
  const dates = bids.map((b) => b.date).filter((d): d is string => typeof d === 'string');
  return {
    statistics: [
      {
        id: '1',
        measure: 'validBids',
        value: bids.length,
        date: dates.length ? dates.reduce((a, b) => (a > b ? a : b)) : undefined,
        notes: 'This statistic covers the total number of unique bids received that were considered valid against relevant criteria.',
      },
    ],
    details: bids.map((bid) => ({
      id: bid.id,
      date: bid.date,
      status: bidStatusOf(bid.status),
      identifiers: (bid.tenderers ?? []).map((org: Doc) => ({ id: org.identifier?.id, scheme: org.identifier?.scheme })),
      value: valueOf(bid.value),
      tenderers: tendererReferences(parties, bid),
      documents: ['documents', 'financialDocuments', 'eligibilityDocuments', 'qualificationDocuments'].flatMap((key) =>
        documentsOf(bid[key], lotScope),
      ),
    })),
  };
}

import { ocidOf, releaseIdOf } from './ocds-option';
import { Parties, type OrganizationReference } from './parties';
import { documentsOf, itemsOf, milestonesOf, partOf, partsOf, periodOf, valueOf, type OcdsObject, type ViewPart } from './parts';
import { planning, planningProcess } from './plan-release';
import { prune } from './prune';

/** OCDS's closed `tenderStatus` list; any other status (`draft`, `active.tendering`...) is `active`, as the reference maps it. */
const TENDER_STATUSES = ['planning', 'planned', 'active', 'cancelled', 'unsuccessful', 'complete', 'withdrawn'];
/** The reference's award criteria kept as they are; any other is `ratedCriteria`. */
const AWARD_CRITERIA: unknown[] = [
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
function bidStatusOf(status: unknown): string {
  if ((status as string | undefined)?.includes('invalid')) return 'disqualified';
  if (status === 'active') return 'valid';
  if (status === 'deleted') return 'withdrawn';
  return 'pending';
}

/** The bids of a lot, each with that lot's value and date, or every bid of a tender without lots. */
function bidsOf(tender: ViewPart, lotId?: string): ViewPart[] {
  const bids = partsOf(tender.bids);
  if (!lotId) return bids;
  return bids.flatMap((bid) => {
    const lotValue = partsOf(bid.lotValues).find((lv) => lv.relatedLot === lotId);
    return lotValue ? [{ ...bid, date: lotValue.date ?? bid.date, value: lotValue.value ?? bid.value }] : [];
  });
}

/**
 * The releases of a tender as a reader sees it (docs/ocds.md §Tenders): one per lot, or one for a tender without
 * lots, as the reference's `ocds_format_tender`, each made when asked for; `plan` is the plan the tender came from, when there is one.
 */
export function* tenderReleases(tender: ViewPart, plan?: ViewPart): Generator<OcdsObject> {
  const lots = partsOf(tender.lots);
  if (!lots.length) yield tenderRelease(tender, plan);
  for (const lot of lots) yield tenderRelease(tender, plan, lot);
}

function tenderRelease(tender: ViewPart, plan: ViewPart | undefined, lot?: ViewPart): OcdsObject {
  const lotId = lot?.id as string | undefined;
  const items = partsOf(tender.items).filter((i) => !lotId || i.relatedLot === lotId);
  const lotScope = lotId ? { id: lotId, itemIds: items.map((i) => i.id as string) } : undefined;
  const parties = new Parties();
  const pe = partOf(tender.procuringEntity);
  const buyer = parties.add(pe, 'buyer', 'procuringEntity');
  parties.add(pe, 'procuringEntity', 'procuringEntity');
  const bids = bidsOf(tender, lotId);
  const tenderers = bids.flatMap((bid) => tendererReferences(parties, bid));
  const awards = partsOf(tender.awards).filter((a) => !lotId || a.lotID === lotId);
  const awardIds = awards.map((a) => a.id);
  const contracts = partsOf(tender.contracts).filter((c) => awardIds.includes(c.awardID));
  // A cancelled tender leaves its lots' statuses as they were (docs/ocds.md §Tenders).
  const status = (tender.status === 'cancelled' ? 'cancelled' : (lot?.status ?? tender.status)) as string;
  const questions = partsOf(tender.questions).filter(
    (q) => !lotId || q.questionOf === 'tender' || q.relatedItem === lotId || lotScope?.itemIds.includes(q.relatedItem as string),
  );
  // The tender's own id and date, which no hiding touches (docs/masking.md §Tender).
  const { id, dateModified } = tender as { id: string; dateModified: string };
  const base = lotId ? `${id}-${lotId}` : id;

  const release: OcdsObject = {
    ocid: ocidOf(id, lotId),
    id: releaseIdOf(base, dateModified),
    date: dateModified,
    tag: tagsOf(status, plan, awards, contracts),
    initiationType: 'tender',
    parties: [],
    buyer,
    planning: plan && planning(plan),
    tender: {
      id,
      title: lot?.title || tender.title,
      description: lot?.description || tender.description,
      status: TENDER_STATUSES.includes(status) ? status : 'active',
      procuringEntity: buyer,
      items: itemsOf(items),
      value: valueOf(partOf(lot?.value ?? tender.value)),
      procurementMethod: tender.procurementMethod,
      procurementMethodDetails: tender.procurementMethodType,
      procurementMethodRationale: tender.procurementMethodRationale,
      mainProcurementCategory: tender.mainProcurementCategory,
      awardCriteria: AWARD_CRITERIA.includes(tender.awardCriteria) ? tender.awardCriteria : 'ratedCriteria',
      awardCriteriaDetails: tender.awardCriteriaDetails,
      submissionMethod: tender.submissionMethod ? [tender.submissionMethod] : undefined,
      tenderPeriod: periodOf(partOf(tender.tenderPeriod)),
      enquiryPeriod: periodOf(partOf(tender.enquiryPeriod ?? tender.tenderPeriod)),
      hasEnquiries: questions.length > 0,
      eligibilityCriteria: tender.eligibilityCriteria,
      awardPeriod: periodOf(partOf(lot?.awardPeriod ?? tender.awardPeriod)),
      contractPeriod: periodOf(partOf(tender.contractPeriod)),
      numberOfTenderers: bids.length,
      tenderers: uniqueReferences(tenderers),
      documents: documentsOf(partsOf(tender.documents), lotScope),
      milestones: milestonesOf(partsOf(tender.milestones), lotId),
    },
    awards: awards.map((award) => ({
      id: award.id,
      title: award.title,
      description: award.description,
      status: award.status,
      date: award.date,
      value: valueOf(partOf(award.value)),
      suppliers: supplierReferences(parties, award.suppliers ?? bidTenderers(tender, award.bid_id), award.id as string),
      items: itemsOf(items),
      documents: documentsOf(partsOf(award.documents)),
    })),
    contracts: contracts.map((contract) => {
      supplierReferences(parties, contract.suppliers, contract.awardID as string);
      return contractOf(contract);
    }),
    relatedProcesses: plan ? [planningProcess(plan)] : undefined,
    bids: bids.length ? bidsSection(bids, parties, lotScope) : undefined,
  };
  release.parties = parties.list();
  return prune(release);
}

/** What a release carries: `tender` always (the reference's only tag), and the stages it reached. */
function tagsOf(status: string, plan: ViewPart | undefined, awards: ViewPart[], contracts: ViewPart[]): string[] {
  return [
    ...(plan ? ['planning'] : []),
    'tender',
    ...(status === 'cancelled' ? ['tenderCancellation'] : []),
    ...(awards.length ? ['award'] : []),
    ...(contracts.length ? ['contract'] : []),
  ];
}

/** A bid's tenderers as parties; hidden ones are named by the bid, as the reference names every tenderer. */
const tendererReferences = (parties: Parties, bid: ViewPart): OrganizationReference[] =>
  partsOf(bid.tenderers).map((org, n) => parties.add(org, 'tenderer', n ? `${String(bid.id)}-${n}` : (bid.id as string))!);

const bidTenderers = (tender: ViewPart, bidId: unknown): ViewPart[] | undefined =>
  (partsOf(tender.bids).find((bid) => bid.id === bidId)?.tenderers as ViewPart[] | undefined)?.slice(0, 1);

function supplierReferences(parties: Parties, suppliers: unknown, fallback: string): OrganizationReference[] {
  return partsOf(suppliers).map((org, n) => parties.add(org, 'supplier', n ? `${fallback}-${n}` : fallback)!);
}

const uniqueReferences = (references: OrganizationReference[]) => [...new Map(references.map((r) => [r.id, r])).values()];

/** An OCDS `Contract` from a tender's contract or from a contract object (docs/ocds.md §Contracts). */
export function contractOf(contract: ViewPart): OcdsObject {
  return {
    id: contract.id,
    awardID: contract.awardID,
    title: contract.title,
    description: contract.description,
    status: contract.status,
    period: periodOf(partOf(contract.period)),
    value: valueOf(partOf(contract.value)),
    items: contract.items ? itemsOf(partsOf(contract.items)) : undefined,
    dateSigned: contract.dateSigned,
    documents: documentsOf(partsOf(contract.documents)),
    amendments: partsOf(contract.changes)
      .filter((change) => change.status === 'active')
      .map((change) => ({ id: change.id, date: change.dateSigned ?? change.date, rationale: change.rationale })),
  };
}

/** The bid extension's `bids`: how many were received, and each as the reader sees it. */
function bidsSection(bids: ViewPart[], parties: Parties, lotScope: { id: string; itemIds: string[] } | undefined): OcdsObject {
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
      identifiers: partsOf(bid.tenderers).map((org) => ({ id: partOf(org.identifier)?.id, scheme: partOf(org.identifier)?.scheme })),
      value: valueOf(partOf(bid.value)),
      tenderers: tendererReferences(parties, bid),
      documents: ['documents', 'financialDocuments', 'eligibilityDocuments', 'qualificationDocuments'].flatMap((key) =>
        documentsOf(partsOf(bid[key]), lotScope),
      ),
    })),
  };
}

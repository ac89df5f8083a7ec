import type { OwnerSecrets } from '../../security/tokens';
import type { Stored } from '../../store/port';
import type { ObjectDoc } from '../core/object-doc';
import type { ContractValue } from '../contract/contract.types';
import type {
  BusinessOrganization,
  Classification,
  ContractedItem,
  Document,
  Guarantee,
  Item,
  Milestone,
  Period,
  ProcuringEntity,
  SignerInfo,
  Translated,
  Unit,
  Value,
} from '../core/shapes';
import type { Question as FrameworkQuestion } from '../question/question.types';

/**
 * A tender as stored (spec: Tender; docs/architecture.md §Domain types): its `data` and the objects within it. The joi
 * schemas (tender.schema.ts, the sub-resources' own) say what a request may carry; the server sets the rest.
 */

export type TenderStatus =
  | 'draft'
  | 'active.enquiries'
  | 'active.tendering'
  | 'active.auction'
  | 'active.qualification'
  | 'active.awarded'
  | 'complete'
  | 'unsuccessful'
  | 'cancelled';

export type LotStatus = 'active' | 'cancelled' | 'unsuccessful' | 'complete';

/** The procuring entity, and who signs its contracts. */
export type TenderProcuringEntity = ProcuringEntity & { signerInfo?: SignerInfo };

/** A tenderer, a supplier or a funder. */
export type TenderOrganization = BusinessOrganization & { signerInfo?: SignerInfo };

/**
 * `enquiryPeriod`: the procedure's `periods` complete it on every save, with `clarificationsUntil`, and a
 * competitiveOrdering change sets `invalidationDate`.
 */
export type EnquiryPeriod = Required<Period> & { clarificationsUntil?: string; invalidationDate?: string };

/** `auctionPeriod` of the tender or a lot: planned with `shouldStartAfter`, dated by the auction's results (docs/tenders.md §Auction period). */
export type AuctionPeriod = Period & { shouldStartAfter?: string };

export type Lot = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    title: string;
    value: Value;
    minimalStep?: Value;
    guarantee?: Guarantee;
    /** Set by the server: `active` when added (docs/tenders.md §Lots). */
    status: LotStatus;
    date: string;
    auctionPeriod?: AuctionPeriod;
    auctionUrl?: string;
  };

export type FeatureValue = Translated<'title'> & Translated<'description'> & { value: number; title: string };

export type Feature = Translated<'title'> &
  Translated<'description'> & {
    code: string;
    featureOf: 'tenderer' | 'lot' | 'item';
    relatedItem?: string;
    title: string;
    enum: FeatureValue[];
  };

/** A tender's question as every reader sees it: its author only as a salted hash (questions/tender-question.lifecycle.ts). */
export type Question = Omit<FrameworkQuestion, 'author'> & {
  author: { hash: string };
  questionOf: 'tender' | 'lot' | 'item';
  relatedItem?: string;
};

/** What `createTenderQuestionSchema` lets through: the question, its author in full, and what it is about (`tender` unless given). */
export type TenderQuestionRequest = Pick<FrameworkQuestion, 'title' | 'description' | 'author'> &
  Pick<Question, 'questionOf' | 'relatedItem'>;

/** A tender's cancellation, or one lot's (docs/tenders.md §Cancellations). */
export type Cancellation = Translated<'reason'> & {
  id: string;
  reason: string;
  reasonType?: string;
  status: 'draft' | 'pending' | 'active' | 'unsuccessful';
  cancellationOf: 'tender' | 'lot';
  relatedLot?: string;
  date: string;
  documents?: Document[];
};

export type AwardStatus = 'pending' | 'unsuccessful' | 'active' | 'cancelled';

/** An award, made by the server from a bid and decided by the tender's owner (docs/tenders.md §Awards). */
export type Award = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    status: AwardStatus;
    date: string;
    value?: Value;
    suppliers?: TenderOrganization[];
    bid_id: string;
    lotID?: string;
    qualified?: boolean;
    eligible?: boolean;
    /** The award's stand-still after a decision. */
    complaintPeriod?: Period;
    documents?: Document[];
  };

/** The tender's copy of a contract its award made; the contract object itself lives at `/contracts/{id}` (docs/tenders.md §Contracts of a tender). */
export type TenderContract = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    awardID: string;
    /** Numbered when the contract object is saved. */
    contractID?: string;
    status: string;
    date: string;
    value?: ContractValue;
    suppliers?: TenderOrganization[];
    items: ContractedItem[];
    documents?: Document[];
  };

export type BidStatus = 'draft' | 'pending' | 'active' | 'invalid' | 'invalid.pre-qualification' | 'unsuccessful' | 'deleted';

/** A bid's offer for one lot. */
export interface LotValue {
  value?: Value;
  weightedValue?: Value;
  relatedLot?: string;
  subcontractingDetails?: string;
  participationUrl?: string;
  status?: string;
  date?: string;
}

export interface Parameter {
  code: string;
  value: number;
}

/**
 * A bid (docs/tenders.md §Bids). Loose on purpose: bids/ is not typed yet and hands untyped documents to the tender's
 * functions, which only a type with every member optional accepts; its schemas are not bound to it.
 */
export type Bid = {
  id?: string;
  status?: BidStatus;
  date?: string;
  tenderers?: TenderOrganization[];
  value?: Value;
  weightedValue?: Value;
  lotValues?: LotValue[];
  items?: Partial<Item>[];
  parameters?: Parameter[];
  subcontractingDetails?: string;
  participationUrl?: string;
  documents?: Document[];
  selfEligible?: boolean;
  selfQualified?: boolean;
  requirementResponses?: unknown[];
};

export interface Requirement {
  id?: string;
  title?: string;
  status?: string;
  dataType?: string;
  unit?: Unit;
}

export interface RequirementGroup {
  id?: string;
  description?: string;
  requirements?: Requirement[];
}

/** A criterion (spec: Criterion). Loose on purpose, as `Bid`: criteria/ is not typed yet and its schemas are not bound to it. */
export type Criterion = {
  id?: string;
  title?: string;
  description?: string;
  source?: string;
  relatesTo?: string;
  relatedItem?: string;
  classification?: Partial<Classification>;
  legislation?: unknown[];
  requirementGroups?: RequirementGroup[];
};

/** A tender's `data` (spec: Tender): what the owner sees. */
export type Tender = Translated<'title'> &
  Translated<'description'> &
  Translated<'procurementMethodRationale'> &
  Translated<'submissionMethodDetails'> & {
    id: string;
    /** Numbered by the commit that creates the tender. */
    tenderID: string;
    owner: string;
    date: string;
    dateCreated: string;
    dateModified: string;
    next_check?: string;
    status: TenderStatus;
    mode?: 'test';
    procurementMethodType: string;
    procurementMethod?: 'open' | 'selective' | 'limited';
    /** Sandbox only (docs/platform.md §Sandbox acceleration). */
    procurementMethodDetails?: string;
    title: string;
    mainProcurementCategory?: 'goods' | 'services' | 'works';
    procuringEntity: TenderProcuringEntity;
    value: Value;
    minimalStep?: Value;
    guarantee?: Guarantee;
    items: Item[];
    lots?: Lot[];
    features?: Feature[];
    milestones?: Milestone[];
    funders?: TenderOrganization[];
    submissionMethod?: 'electronicAuction';
    awardCriteria?: 'lowestCost' | 'lifeCycleCost';
    enquiryPeriod: EnquiryPeriod;
    /** The client gives its end; the procedure's `periods` set its start where the client gives none. */
    tenderPeriod: Required<Period>;
    auctionPeriod?: AuctionPeriod;
    auctionUrl?: string;
    awardPeriod?: Period;
    /** The pre-selection agreement of a competitiveOrdering tender. */
    agreements?: { id: string }[];
    /** The plans it was made from (docs/plans.md §Tenders). */
    plans?: { id: string }[];
    criteria?: Criterion[];
    questions?: Question[];
    cancellations?: Cancellation[];
    /** Public bids only: private ones are kept beside `data` (`TenderHidden.sealedBids`). */
    bids?: Bid[];
    awards?: Award[];
    contracts?: TenderContract[];
    documents?: Document[];
  };

/** What the first save of a tender sets: a tender's rules and defaults see it without them on creation. */
type TenderStamps = 'id' | 'tenderID' | 'owner' | 'date' | 'dateCreated' | 'dateModified';

/** A tender being saved: created (without its stamps yet) or changed. */
export type TenderContent = Omit<Tender, TenderStamps> & Partial<Pick<Tender, TenderStamps>>;

/**
 * `config` of a tender (the spec's 11 keys, tender.config.ts). `validateTenderConfig` fills every key, but
 * readers take a missing config as empty.
 */
export interface TenderConfig {
  hasAuction?: boolean;
  hasAwardingOrder?: boolean;
  hasValueRestriction?: boolean;
  valueCurrencyEquality?: boolean;
  hasPrequalification?: boolean;
  minBidsNumber?: number;
  hasPreSelectionAgreement?: boolean;
  hasTenderComplaints?: boolean;
  hasAwardComplaints?: boolean;
  hasCancellationComplaints?: boolean;
  restricted?: boolean;
}

/** A bid's broker and its token hashes: kept beside the tender for good, never in `data`. */
export interface BidAccess {
  owner: string;
  secrets: OwnerSecrets;
}

/**
 * The members of a stored tender that no reader is shown, declared once (docs/architecture.md §Hidden changes).
 * A change of these alone keeps the tender's feed position and makes no version.
 */
export interface TenderHidden {
  /** The bids while they are private (docs/tenders.md §Bids); they enter `data` when the tender leaves those statuses. */
  sealedBids?: Bid[];
  /** Each bid's broker and token hashes, by bid id. */
  bidAccess?: Record<string, BidAccess>;
  /** Each question's author in full, by question id: readers see only a salted hash (questions/tender-question.lifecycle.ts). */
  questionAuthors?: Record<string, BusinessOrganization>;
  /** The tender's salt of those hashes. */
  questionSalt?: string;
}

/** A tender as stored: `data` (the owner's full view), `config`, token hashes, and the hidden members. */
export type TenderDoc = ObjectDoc<Tender, TenderConfig, TenderHidden>;
export type StoredTender = Stored & { doc: TenderDoc };

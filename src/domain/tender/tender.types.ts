import type { OwnerSecrets } from '../../security/tokens';
import type { Stored } from '../../store/port';
import type { ObjectDoc } from '../core/object-doc';
import type { ContractStatus, ContractValue } from '../contract/contract.types';
import type {
  BusinessOrganization,
  Classification,
  ContractedItem,
  Document,
  DocumentVersion,
  Guarantee,
  Identifier,
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

/**
 * Every procedure starts as a draft and ends complete, unsuccessful or cancelled; its active phases are its own
 * (its `phases`, src/domain/tender/procedures/, docs/architecture.md §Procedures as data).
 */
export type TenderStatus = 'draft' | 'active' | `active.${string}` | 'complete' | 'unsuccessful' | 'cancelled';

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
  /** With cancellation complaints: the 10 days complaints may be made while it is `pending` (docs/tenders.md §Complaints). */
  complaintPeriod?: Period;
  complaints?: Complaint[];
};

/** docs/tenders.md §Complaints: the reference's complaint statuses a complaint here can take. */
export type ComplaintStatus = 'draft' | 'pending' | 'accepted' | 'invalid' | 'declined' | 'satisfied' | 'resolved' | 'mistaken' | 'stopped';

/** An evidence of an objection's argument: names one of the complaint's documents. */
export interface ComplaintEvidence {
  id: string;
  title: string;
  description?: string;
  relatedDocument: string;
}

export interface ComplaintArgument {
  id: string;
  description: string;
  evidences?: ComplaintEvidence[];
}

export interface RequestedRemedy {
  id: string;
  type: string;
  description: string;
}

/** One objection of a complaint (the reference's current `Objection`). */
export interface Objection {
  id: string;
  title: string;
  description?: string;
  relatesTo: 'tender' | 'lot' | 'award' | 'cancellation' | 'qualification';
  relatedItem: string;
  classification: { scheme: string; id: string; description: string };
  requestedRemedies: RequestedRemedy[];
  arguments: ComplaintArgument[];
  sequenceNumber?: number;
}

/** Who writes a complaint's posts, as the reference's `authenticated_role` names them. */
export type PostAuthor = 'complaint_owner' | 'tender_owner' | 'aboveThresholdReviewers';

/** A question of the review body to a party, that party's answer, or a party's explanation (docs/tenders.md §Complaints). */
export interface ComplaintPost {
  id: string;
  title: string;
  description: string;
  recipient?: PostAuthor;
  relatedPost?: string;
  relatedObjection: string;
  datePublished: string;
  author: PostAuthor;
}

/** A party's appeal of the review body's decision to the court (docs/tenders.md §Complaints: appeals). */
export interface ComplaintAppeal {
  id: string;
  description: string;
  documents?: Document[];
  /** The court's case, once the appeal's author names it (set once). */
  proceeding?: { dateProceedings: string; proceedingNumber: string };
  legislation: Legislation;
  author: 'complaint_owner' | 'tender_owner';
  dateCreated: string;
  datePublished: string;
}

/** A complaint to the review body of the tender, an award or a cancellation (docs/tenders.md §Complaints). */
export interface Complaint {
  id: string;
  complaintID: string;
  date: string;
  status: ComplaintStatus;
  type: 'complaint';
  author: TenderOrganization;
  title: string;
  description?: string;
  relatedLot?: string;
  /** An award complaint's bid: the complainant's, where its token was presented. */
  bid_id?: string;
  objections?: Objection[];
  documents?: Document[];
  /** The fee (docs/tenders.md §Complaints: the fee). */
  value?: { amount: number; currency: string };
  dateSubmitted?: string;
  decision?: string;
  dateDecision?: string;
  acceptance?: boolean;
  dateAccepted?: string;
  rejectReason?: string;
  rejectReasonDescription?: string;
  reviewDate?: string;
  reviewPlace?: string;
  tendererAction?: string;
  tendererActionDate?: string;
  dateCanceled?: string;
  posts?: ComplaintPost[];
  appeals?: ComplaintAppeal[];
}

export type AwardStatus = 'pending' | 'unsuccessful' | 'active' | 'cancelled';

/** An award, made by the server from a bid and decided by the tender's owner (docs/tenders.md §Awards). */
export type Award = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    status: AwardStatus;
    date: string;
    value?: Value;
    suppliers?: TenderOrganization[];
    /** The bid it was made from; none for an award the owner named (docs/tenders.md §reporting). */
    bid_id?: string;
    lotID?: string;
    qualified?: boolean;
    eligible?: boolean;
    /** The award's stand-still after a decision. */
    complaintPeriod?: Period;
    documents?: Document[];
    complaints?: Complaint[];
  };

/** The tender's copy of a contract its award made; the contract object itself lives at `/contracts/{id}` (docs/tenders.md §Contracts of a tender). */
export type TenderContract = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    awardID: string;
    /** Numbered when the contract object is saved. */
    contractID?: string;
    status: ContractStatus;
    date: string;
    value?: ContractValue;
    suppliers?: TenderOrganization[];
    items: ContractedItem[];
    documents?: Document[];
  };

export type BidStatus = 'draft' | 'pending' | 'active' | 'invalid' | 'invalid.pre-qualification' | 'unsuccessful' | 'deleted';

/**
 * A bid's offer for one lot. `status` is `pending` when placed, `active` or `unsuccessful` once tendering ends; a
 * lot value a PATCH adds at a new position carries only what the patch gives (bids/bid.lifecycle.ts).
 */
export interface LotValue {
  value?: Value;
  weightedValue?: Value;
  relatedLot?: string;
  subcontractingDetails?: string;
  participationUrl?: string;
  status?: 'pending' | 'active' | 'unsuccessful';
  date: string;
}

export interface Parameter {
  code: string;
  value: number;
}

/** The tender item a bid prices (the reference's `BaseItem` of a bid). */
export type BidItem = Translated<'description'> & Pick<Item, 'id' | 'quantity' | 'unit' | 'relatedLot'>;

/** What a requirement response or an evidence names: a requirement, a tenderer, a bid document. */
export interface Reference {
  id: string;
  title?: string;
}

/** A requirement response's value: any JSON scalar, converted to the requirement's `dataType` where it converts. */
export type ResponseValue = string | number | boolean;

/** How a bidder supports a requirement response (docs/tenders.md §Requirement responses). */
export type Evidence = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    type?: 'document' | 'statement';
    relatedDocument?: Reference;
  };

/** The period a requirement response may give (`ExtendPeriod`). */
export type ExtendPeriod = Period & { maxExtendDate?: string; durationInDays?: number; duration?: string };

/**
 * A bid's answer to one requirement of the tender's criteria (docs/tenders.md §Requirement responses). The bid rules
 * refuse a response without `requirement`; `requirement.title` and `classification` are copied from the criteria.
 */
export interface RequirementResponse {
  id: string;
  requirement: Reference;
  relatedTenderer?: Reference;
  relatedItem?: string;
  evidences?: Evidence[];
  value?: ResponseValue;
  values?: ResponseValue[];
  period?: ExtendPeriod;
  classification?: CriterionClassification;
}

/** What `evidenceSchema` lets through: the server gives an evidence without an id one. */
export type EvidenceRequest = Omit<Evidence, 'id'> & { id?: string };

/**
 * What `requirementResponseSchema` lets through: ids optional (the server gives them), `requirement` too (the bid
 * rules refuse a response without one), no `classification` (the server copies it).
 */
export type RequirementResponseRequest = Omit<RequirementResponse, 'id' | 'requirement' | 'evidences' | 'classification'> & {
  id?: string;
  requirement?: Reference;
  evidences?: EvidenceRequest[];
};

/** A bid's document: the bidder may hide one from all but itself and the tender's owner (docs/platform.md §Document fields). */
export type BidDocument = DocumentVersion;

/**
 * A bid (docs/tenders.md §Bids). Once bids are public an `invalid` or `deleted` bid keeps only its `id` and
 * `status` in `data` (bids/bid.view.ts `bidAsSeen`), so every other member is optional; a bid saved by bids/ has
 * its `date` and `tenderers`, and the value or lot values the bid rules require of it.
 */
export type Bid = {
  id: string;
  status: BidStatus;
  date?: string;
  tenderers?: TenderOrganization[];
  value?: Value;
  weightedValue?: Value;
  lotValues?: LotValue[];
  items?: BidItem[];
  parameters?: Parameter[];
  subcontractingDetails?: string;
  participationUrl?: string;
  documents?: BidDocument[];
  financialDocuments?: BidDocument[];
  eligibilityDocuments?: BidDocument[];
  qualificationDocuments?: BidDocument[];
  /** competitiveOrdering's self-declarations. */
  selfEligible?: true;
  selfQualified?: true;
  requirementResponses?: RequirementResponse[];
};

/** A lot value as a bid request gives it. */
export type LotValueRequest = Pick<LotValue, 'value' | 'relatedLot' | 'subcontractingDetails' | 'status'>;

/** What the bid schemas let through (bids/bid.schema.ts): on creation `tenderers` and each lot value's `value` and `relatedLot` are required. */
export type BidRequest = Pick<
  Bid,
  'tenderers' | 'value' | 'items' | 'parameters' | 'subcontractingDetails' | 'status' | 'selfEligible' | 'selfQualified'
> & {
  lotValues?: LotValueRequest[];
  requirementResponses?: RequirementResponseRequest[];
};

/** The documents a bid holds, by list. */
export type BidDocumentList = 'documents' | 'financialDocuments' | 'eligibilityDocuments' | 'qualificationDocuments';

/** A kind of evidence a requirement accepts. */
export interface EligibleEvidence {
  id: string;
  title?: string;
  description?: string;
  type?: 'document' | 'statement';
}

export type RequirementDataType = 'boolean' | 'string' | 'number' | 'integer';

/** One requirement of a criterion's group: `active` and dated when added (docs/tenders.md §Criteria). */
export interface Requirement {
  id: string;
  title: string;
  description?: string;
  dataType: RequirementDataType;
  expectedValue?: ResponseValue;
  minValue?: number;
  maxValue?: number;
  eligibleEvidences?: EligibleEvidence[];
  status: 'active' | 'cancelled';
  datePublished: string;
  /** Names the unit of the contract item attribute made of the answer (criteria.schema.ts). */
  unit?: Unit;
  /** The standard a string requirement's `expectedValues` are codes of (HEAD's `DataSchema`). */
  dataSchema?: RequirementDataSchema;
  /** The answers a bid may choose from, and how many of them it gives (docs/tenders.md §Criteria). */
  expectedValues?: ResponseValue[];
  expectedMinItems?: number;
  expectedMaxItems?: number;
}

export type RequirementDataSchema = 'ISO 639-3' | 'ISO 3166-1 alpha-2';

/** Requirements a bid answers all of, or another group of the criterion. */
export interface RequirementGroup {
  id: string;
  description: string;
  requirements: Requirement[];
}

/** A criterion's classification: the spec's without a description (`espd211` codes). */
export type CriterionClassification = Pick<Classification, 'scheme' | 'id'> & Partial<Pick<Classification, 'description'>>;

export interface Legislation {
  version?: string;
  identifier?: Pick<Identifier, 'id' | 'legalName' | 'uri'>;
  type?: 'NATIONAL_LEGISLATION';
  article?: string;
}

/** A criterion of a tender (spec: Criterion; docs/tenders.md §Criteria). */
export interface Criterion {
  id: string;
  title: string;
  description?: string;
  source?: 'tenderer' | 'procuringEntity' | 'winner';
  relatesTo?: 'tenderer' | 'item' | 'lot' | 'tender';
  relatedItem?: string;
  classification: CriterionClassification;
  legislation?: Legislation[];
  requirementGroups: RequirementGroup[];
}

/** What `criterionSchema` lets through: a criterion without the ids, statuses and dates the server gives it. */
export type CriterionRequest = Omit<Criterion, 'id' | 'requirementGroups'> & { requirementGroups: RequirementGroupRequest[] };
export type RequirementGroupRequest = Omit<RequirementGroup, 'id' | 'requirements'> & { requirements: RequirementRequest[] };
export type RequirementRequest = Omit<Requirement, 'id' | 'status' | 'datePublished' | 'eligibleEvidences'> & {
  eligibleEvidences?: Omit<EligibleEvidence, 'id'>[];
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
    /** Where the procedure takes tender complaints: the server's, from tendering's start to some days before its end. */
    complaintPeriod?: Required<Period>;
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
    complaints?: Complaint[];
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
  /** Kept only where the procedure reads it (tender.config.ts `ConfigSpec`). */
  minTenderingDuration?: number;
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
  /** Each complaint's broker and token hashes, by complaint id (docs/tenders.md §Complaints). */
  complaintAccess?: Record<string, BidAccess>;
}

/** A tender as stored: `data` (the owner's full view), `config`, token hashes, and the hidden members. */
export type TenderDoc = ObjectDoc<Tender, TenderConfig, TenderHidden>;
export type StoredTender = Stored & { doc: TenderDoc };

import type { Doc } from '../core/object-doc';
import type Joi from 'joi';
import type { StoreSession } from '../../store/port';
import type { DayCount } from '../../time/acceleration';
import type { DueEvent } from '../core/events';
import type { ConfigSpec } from './tender.config';
import type { Award, Cancellation, Tender, TenderConfig, TenderContent, TenderOrganization, TenderStatus } from './tender.types';

/** What a rule sees besides the tender it checks: the request's "now", the store, the config, the stored data. */
export interface TenderContext {
  now: Date;
  session: StoreSession;
  config: TenderConfig;
  /** The stored data before this request; undefined on creation. */
  before?: Tender;
}

/** A named rule: throws the reference's error when the tender breaks it. */
export type TenderRule = (tender: TenderContent, ctx: TenderContext) => void | Promise<void>;

/** A rule on who may ask a question of the tender: throws the reference's error for an author it refuses. */
export type QuestionRule = (tender: Tender, author: TenderOrganization, ctx: TenderContext) => void | Promise<void>;

/**
 * A rule on a bid as it will be saved (created or changed): throws the reference's error for a bid it refuses.
 * bids/ calls it with untyped documents until it is typed (docs/architecture.md §Domain types).
 */
export type BidRule = (bid: Doc, tender: Doc, ctx: TenderContext) => void | Promise<void>;

/** What a procedure says about bids (docs/tenders.md §Bids). */
export interface BidPolicy {
  /** Broker accreditation levels that may bid. */
  accreditation: string[];
  schemas: { create: Joi.ObjectSchema; patch: Joi.ObjectSchema };
  rules: BidRule[];
}

/** A rule on an owner's change of an award (`after`, merged): throws the reference's error for a change it refuses. */
export type AwardRule = (after: Award, before: Award) => void;

/** What a procedure says about awards (docs/tenders.md §Awards). */
export interface AwardPolicy {
  /** The owner's PATCH of an award. */
  schema: Joi.ObjectSchema;
  /** Checks of a decision (`qualified`, `eligible`) run when the status changes. */
  rules: AwardRule[];
  /** The award's stand-still (`complaintPeriod`) after a decision. */
  standStill: DayCount;
  /** `check_skip_award_complaint_period`: contracts are signed, and lots close, without waiting for the stand-still. */
  skipStandStill: boolean;
}

/**
 * A rule on a cancellation being added or changed (as stored before the change): throws the reference's error.
 * `operation` words the reference's `… can't be added|updated …` texts.
 */
export type CancellationRule = (cancellation: Cancellation, tender: Tender, ctx: { now: Date; operation: 'added' | 'updated' }) => void;

/** What a procedure says about cancellations (docs/tenders.md §Cancellations). */
export interface CancellationPolicy {
  /** The `reasonType` values it accepts, in the reference's order (they appear in its refusal text). */
  reasonTypes: string[];
  /** Its own checks, run after the shared ones. */
  rules: CancellationRule[];
}

/** Where a complaint may be posted: of the tender, of an award, of a cancellation (docs/tenders.md §Complaints). */
export type ComplaintHost = 'tender' | 'award' | 'cancellation';

/**
 * An automatic transition: when `due` has come, `apply` moves the tender on
 * (docs/architecture.md §Automatic transitions, §Where rules live).
 */
export type TenderEvent = DueEvent<Tender, TenderConfig>;

/** One procedure type: data plus small hooks (docs/architecture.md §Procedures as data). */
export interface TenderProcedure {
  type: 'belowThreshold' | 'competitiveOrdering';
  procurementMethod: 'open' | 'selective';
  /** Broker accreditation levels that may create it (docs/platform.md §API keys and accreditation). */
  accreditation: { create: string[] };
  /** The status an owner PATCH activates a draft to (docs/tenders.md §Activation). */
  activeStatus: TenderStatus;
  /** Statuses in which the owner may PATCH the tender. */
  editableStatuses: TenderStatus[];
  cancellations: CancellationPolicy;
  /**
   * The complaint routes the reference has for it (docs/tenders.md §Complaints): lists to read (always empty here)
   * and lists to post to (always refused by configuration).
   */
  complaintRoutes: { read: ComplaintHost[]; post: ComplaintHost[] };
  config: ConfigSpec;
  schemas: { create: Joi.ObjectSchema; patch: Joi.ObjectSchema };
  /** `document` runs on the tender (with its bids) after the owner adds a tender document. */
  rules: { save: TenderRule[]; activate: TenderRule[]; question: QuestionRule[]; document: TenderRule[] };
  bids: BidPolicy;
  awards: AwardPolicy;
  /** Fills the server-computed period members (enquiryPeriod, clarificationsUntil, tenderPeriod.startDate). */
  periods: (tender: TenderContent, ctx: TenderContext) => void;
  /** Effects of activation beyond `status` and `date` (invalidationDate, criteria, auction periods). */
  activate: (tender: TenderContent, ctx: TenderContext) => Promise<void> | void;
  events: (tender: Tender) => TenderEvent[];
}

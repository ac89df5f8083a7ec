import type Joi from 'joi';
import type { StoreSession } from '../../store/port';
import type { DayCount } from '../../time/acceleration';
import type { DueEvent } from '../core/events';
import type { ConfigSpec } from './tender.config';
import type { Award, Bid, Cancellation, Tender, TenderConfig, TenderContent, TenderOrganization, TenderStatus } from './tender.types';

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
 * It sees its procedure's windows too.
 */
export type BidRule = (bid: Bid, tender: Tender, ctx: TenderContext & { windows: TenderWindows }) => void | Promise<void>;

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
  /**
   * `null` where the server makes awards from bids (`add_next_award`); else the owner's `POST` body, for a procedure
   * whose owner names the supplier (docs/tenders.md §reporting).
   */
  create: Joi.ObjectSchema | null;
  /** The owner's PATCH of an award. */
  schema: Joi.ObjectSchema;
  /** Checks of a decision (`qualified`, `eligible`) run when the status changes. */
  rules: AwardRule[];
  /** The award's stand-still (`complaintPeriod`) after a decision; `null` for none (`award_has_period` false). */
  standStill: DayCount | null;
  /** Whether a refusal (`pending → unsuccessful`) gets the stand-still too, not only an activation. */
  refusalStandStill: boolean;
  /**
   * HEAD's `set_award_complaint_period` (`calculate_tender_full_date`): the stand-still counts from the next Kyiv
   * midnight, so it ends at one; the spec era counted from the decision (docs/tenders.md §aboveThreshold).
   */
  standStillFullDays?: boolean;
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

/**
 * How much of the bids readers see in a phase (docs/tenders.md §Bids): none (`sealed`, kept outside `data`), some
 * (`partial`, the reference's pre-qualification: no procedure here has it yet) or all as seen (`public`).
 */
export type BidVisibility = 'sealed' | 'partial' | 'public';

/**
 * What the shared machine does in a phase, when it does something there: it asks the procedure for the phase of a
 * role (`statusOf`) instead of naming a status (docs/architecture.md §Procedures as data).
 */
export type PhaseRole = 'enquiries' | 'tendering' | 'auction' | 'qualification' | 'awarded';

/**
 * What ends a phase: `by` says it (an owner's act, the auction module's results, a due date); `events` are the
 * automatic transitions due while the tender is in it, from which `next_check` is computed.
 */
export interface PhaseEnd {
  by: string;
  events?: (tender: Tender) => TenderEvent[];
}

/** One phase of a procedure's status graph (docs/tenders.md §Tender events and next_check). */
export interface TenderPhase {
  status: TenderStatus;
  role?: PhaseRole;
  /** `public` when absent. */
  bids?: BidVisibility;
  /** Absent for a phase nothing ends (the final ones). */
  ends?: PhaseEnd;
}

/**
 * The statuses in which each kind of change may be made (docs/tenders.md §Bids, §Questions, §Auction, §Awards;
 * docs/tenders.md §Cancellations); `complaints`, the tender statuses in which complaints of each host are made and
 * changed where the procedure names them, else the phases of docs/tenders.md §Complaints.
 */
export interface TenderWindows {
  /** Bids added, changed or deleted. */
  bids: TenderStatus[];
  /** A bid's documents changed by its owner. */
  bidDocuments: TenderStatus[];
  /**
   * A bid's evidences; with `winnerEvidence` one of a response to a `winner` criterion; `winnerResponses`, such a
   * response carrying evidences (docs/tenders.md §Requirement responses). The reference's texts print these lists.
   */
  evidence: string[];
  winnerEvidence: string[];
  winnerResponses: string[];
  /** Questions answered. */
  questions: TenderStatus[];
  /** The auction module's requests. */
  auction: TenderStatus[];
  /** The owner's changes of an award, and of its documents. */
  awards: TenderStatus[];
  awardDocuments: TenderStatus[];
  /** Cancellations added or changed. */
  cancellations: TenderStatus[];
  complaints: Partial<Record<ComplaintHost, TenderStatus[]>> | null;
}

/** One procedure type: data plus small hooks (docs/architecture.md §Procedures as data). */
export interface TenderProcedure {
  /** Its `procurementMethodType`, the key it is registered under in `procedures/index.ts`. */
  type: string;
  procurementMethod: 'open' | 'selective' | 'limited';
  /** Broker accreditation levels that may create it (docs/platform.md §API keys and accreditation). */
  accreditation: { create: string[] };
  /** Its status graph, in order: `draft` first, the status an owner PATCH activates it to next (docs/tenders.md §Activation). */
  phases: TenderPhase[];
  windows: TenderWindows;
  /** Statuses in which the owner may PATCH the tender. */
  editableStatuses: TenderStatus[];
  cancellations: CancellationPolicy;
  /**
   * The complaint routes the reference has for it (docs/tenders.md §Complaints): the hosts whose complaints are read,
   * and those complaints are posted to (a POST is then refused unless the tender's config allows it).
   */
  complaintRoutes: { read: ComplaintHost[]; post: ComplaintHost[] };
  config: ConfigSpec;
  schemas: { create: Joi.ObjectSchema; patch: Joi.ObjectSchema };
  /** `document` runs on the tender (with its bids) after the owner adds a tender document. */
  rules: { save: TenderRule[]; activate: TenderRule[]; question: QuestionRule[]; document: TenderRule[] };
  /** `null` for a procedure without bids: its bid routes answer 404 `not_found`, as the reference's unmatched route does. */
  bids: BidPolicy | null;
  awards: AwardPolicy;
  /** Fills the server-computed period members (enquiryPeriod, clarificationsUntil, tenderPeriod.startDate). */
  periods: (tender: TenderContent, ctx: TenderContext) => void;
  /** Effects of activation beyond `status` and `date` (invalidationDate, criteria, auction periods). */
  activate: (tender: TenderContent, ctx: TenderContext) => Promise<void> | void;
}

type Phased = Pick<TenderProcedure, 'phases'>;

const phaseOf = ({ phases }: Phased, status: string): TenderPhase | undefined => phases.find((p) => p.status === status);

/** Whether nothing ends the tender's phase: it is over (a status the procedure lacks counts as over). */
export const isFinal = (procedure: Phased, status: string): boolean => !phaseOf(procedure, status)?.ends;

/** The status an owner's PATCH activates a draft to: the phase after `draft`. */
export const activeStatusOf = ({ phases }: Phased): TenderStatus => phases[1].status;

/** The status of the procedure's phase of `role`; a procedure the shared machine asks for a role it lacks is a bug. */
export function statusOf(procedure: Phased, role: PhaseRole): TenderStatus {
  const phase = procedure.phases.find((p) => p.role === role);
  if (!phase) throw new Error(`no ${role} phase`);
  return phase.status;
}

/** Whether the tender is in the procedure's phase of `role`. */
export const isIn = (procedure: Phased, role: PhaseRole, status: string): boolean => phaseOf(procedure, status)?.role === role;

/** How much of the bids readers see in `status`. */
export const bidsVisibility = (procedure: Phased, status: string): BidVisibility => phaseOf(procedure, status)?.bids ?? 'public';

/** The automatic transitions due from the tender's current phase (docs/tenders.md §Tender events and next_check). */
export const eventsOf =
  (procedure: Phased) =>
  (tender: Tender): TenderEvent[] =>
    phaseOf(procedure, tender.status)?.ends?.events?.(tender) ?? [];

/** Whether changes of `kind` may be made in `status`. */
export const inWindow = (procedure: Pick<TenderProcedure, 'windows'>, kind: Exclude<keyof TenderWindows, 'complaints'>, status: string) =>
  (procedure.windows[kind] as string[]).includes(status);

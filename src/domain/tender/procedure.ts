import type Joi from 'joi';
import type { Doc, StoreSession } from '../../store/port';
import type { ConfigSpec } from './tender.config';

/** What a rule sees besides the tender it checks: the request's "now", the store, the config, the stored data. */
export interface TenderContext {
  now: Date;
  session: StoreSession;
  config: Doc;
  /** The stored data before this request; undefined on creation. */
  before?: Doc;
}

/** A named rule: throws the reference's error when the tender breaks it. */
export type TenderRule = (tender: Doc, ctx: TenderContext) => void | Promise<void>;

/** A rule on who may ask a question of the tender: throws the reference's error for an author it refuses. */
export type QuestionRule = (tender: Doc, author: Doc, ctx: TenderContext) => void | Promise<void>;

/**
 * An automatic transition: when `due` has come, `apply` moves the tender on
 * (docs/architecture.md §Automatic transitions, §Where rules live).
 */
export interface TenderEvent {
  due: string;
  apply: (tender: Doc, now: Date, config: Doc) => void;
}

/** One procedure type: data plus small hooks (docs/architecture.md §Procedures as data). */
export interface TenderProcedure {
  type: 'belowThreshold' | 'competitiveOrdering';
  procurementMethod: 'open' | 'selective';
  /** Broker accreditation levels that may create it (docs/platform.md §API keys and accreditation). */
  accreditation: { create: string[] };
  /** The status an owner PATCH activates a draft to (docs/tenders.md §Activation). */
  activeStatus: string;
  /** Statuses in which the owner may PATCH the tender. */
  editableStatuses: string[];
  config: ConfigSpec;
  schemas: { create: Joi.ObjectSchema; patch: Joi.ObjectSchema };
  rules: { save: TenderRule[]; activate: TenderRule[]; question: QuestionRule[] };
  /** Fills the server-computed period members (enquiryPeriod, clarificationsUntil, tenderPeriod.startDate). */
  periods: (tender: Doc, ctx: TenderContext) => void;
  /** Effects of activation beyond `status` and `date` (invalidationDate, criteria, auction periods). */
  activate: (tender: Doc, ctx: TenderContext) => Promise<void> | void;
  events: (tender: Doc) => TenderEvent[];
}

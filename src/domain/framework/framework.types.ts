import type { ObjectDoc } from '../core/object-doc';
import type { Classification, Document, Period, ProcuringEntity, Translated } from '../core/shapes';
import type { Question } from '../question/question.types';

export type FrameworkStatus = 'draft' | 'active' | 'complete' | 'unsuccessful';

/** A qualification-period change (docs/frameworks.md §Framework changes). */
export type FrameworkChange = Translated<'rationale'> & {
  id: string;
  rationaleType: string;
  rationale: string;
  modifications: { qualificationPeriod: Period };
  previous: { qualificationPeriod: Period };
  date: string;
  dateModified: string;
};

/** A framework's `data` (spec: Framework); `createFrameworkSchema` says which members a client gives. */
export type Framework = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    /** Numbered by the commit that creates the framework. */
    prettyID?: string;
    frameworkType: string;
    status: FrameworkStatus;
    mode?: 'test';
    title: string;
    procuringEntity: ProcuringEntity;
    classification: Classification;
    additionalClassifications?: Classification[];
    /** The client gives its end; activation sets its start. */
    qualificationPeriod: Period & { endDate: string };
    /** Set on activation (docs/frameworks.md §Framework periods). */
    enquiryPeriod?: Required<Period> & { clarificationsUntil?: string };
    period?: Required<Period>;
    /** Not checked beyond being objects. */
    items?: Record<string, unknown>[];
    frameworkDetails?: string;
    documents?: Document[];
    changes?: FrameworkChange[];
    agreementID?: string;
    owner: string;
    date: string;
    dateCreated: string;
    dateModified: string;
    next_check?: string;
  };

/** `config` of a framework (`frameworkConfigSchema`). */
export interface FrameworkConfig {
  restrictedDerivatives?: boolean;
  clarificationUntilDuration?: number;
  qualificationComplainDuration?: number;
  hasItems?: boolean;
}

/** What a framework keeps beside `data`, never shown. */
export interface FrameworkHidden {
  /** Found successful by the submissions check, never checked again (framework.events.ts). */
  successful?: boolean;
  /** Its activated submissions (submission.lifecycle.ts `activatedSubmissionIds`). */
  submissionIds?: string[];
  /** Its questions live outside `data` (docs/frameworks.md §Questions) … */
  questions?: Question[];
  /** … and the broker that asked each, by question id. */
  questionOwners?: Record<string, string>;
}

export type FrameworkDoc = ObjectDoc<Framework, FrameworkConfig, FrameworkHidden>;

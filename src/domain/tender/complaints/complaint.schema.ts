import Joi from 'joi';
import { list } from '../../core/lists';
import { text } from '../../core/organization.schema';
import { float } from '../../core/float';
import { businessOrganizationSchema, currency, md5, model } from '../../core/parts.schema';
import { isoDate } from '../../core/validation';
import type { ComplaintHost } from '../procedure';
import {
  bodyDocumentSchema,
  documentPatchSchema,
  TENDER_DOCUMENT_FIELDS,
  TENDER_DOCUMENT_TYPES,
  type GivenDocument,
} from '../../documents';
import { TENDER_DOCUMENT_OF, tenderDocumentPatch } from '../tender.routes';
import type {
  Complaint,
  ComplaintAppeal,
  ComplaintArgument,
  ComplaintEvidence,
  ComplaintPost,
  Objection,
  RequestedRemedy,
} from '../tender.types';

/**
 * Complaint request shapes (docs/tenders.md §Complaints), the reference's 1.0.274 models: `PostComplaint` (and its
 * award and cancellation variants, which differ in what an objection may relate to), `DraftPatchComplaint`,
 * `BotPatchComplaint`, `ReviewPatchComplaint`, `TendererResolvePatchComplaint`.
 */

/** Standards `AMCU/requested_remedies_type.json`. */
export const REQUESTED_REMEDIES = [
  'setAside',
  'changeTenderDocumentation',
  'provideClarification',
  'tenderCancellation',
  'setAsideReject',
  'setAsideQualification',
  'setAsideAward',
  'setAsideOthers',
];

export const REJECT_REASONS = [
  'buyerViolationsCorrected',
  'lawNonCompliance',
  'alreadyExists',
  'tenderCancelled',
  'cancelledByComplainant',
  'complaintPeriodEnded',
  'incorrectPayment',
];

/** What an objection of a complaint of each host may relate to (`TenderComplaintObjection`, `AwardComplaintObjection`…). */
const RELATES_TO: Record<ComplaintHost, Objection['relatesTo'][]> = {
  tender: ['tender', 'lot'],
  award: ['award'],
  cancellation: ['cancellation'],
};

type EvidenceRequest = Omit<ComplaintEvidence, 'id'> & { id?: string };
type ArgumentRequest = Omit<ComplaintArgument, 'id' | 'evidences'> & { id?: string; evidences?: EvidenceRequest[] };
type RemedyRequest = Omit<RequestedRemedy, 'id'> & { id?: string };
export type ObjectionRequest = Omit<Objection, 'id' | 'arguments' | 'requestedRemedies'> & {
  id?: string;
  arguments: ArgumentRequest[];
  requestedRemedies: RemedyRequest[];
};

/** What `POST …/complaints` may carry: a sent `status` is accepted and the complaint is a `draft` whatever it says. */
export type ComplaintRequest = Pick<Complaint, 'title' | 'author'> &
  Partial<Pick<Complaint, 'description' | 'type' | 'relatedLot'>> & {
    status?: 'draft' | 'pending';
    objections?: ObjectionRequest[];
    documents?: GivenDocument[];
  };

/** The complainant's change of a draft (`DraftPatchComplaint`). */
export type DraftPatch = Partial<Pick<ComplaintRequest, 'title' | 'description' | 'author' | 'objections'>> & {
  status?: 'draft' | 'pending' | 'mistaken';
};

/** The payment bot's (`BotPatchComplaint`). */
export type BotPatch = Partial<Pick<Complaint, 'rejectReason'>> & { status?: 'pending' | 'mistaken' };

/** The review body's (`ReviewPatchComplaint`). */
export type ReviewPatch = Partial<
  Pick<Complaint, 'decision' | 'rejectReason' | 'rejectReasonDescription' | 'reviewDate' | 'reviewPlace'>
> & {
  status?: 'accepted' | 'declined' | 'satisfied' | 'invalid' | 'mistaken' | 'stopped';
};

/** The tender owner's (`TendererActionPatchComplaint`, `TendererResolvePatchComplaint`). */
export type TendererPatch = Partial<Pick<Complaint, 'tendererAction'>> & { status?: 'satisfied' | 'resolved' };

const id = () => md5();

const evidenceSchema = model<EvidenceRequest>('Evidence', {
  id: id(),
  title: text().required(),
  description: text(),
  relatedDocument: text().required(),
});

const argumentSchema = model<ArgumentRequest>('Argument', {
  id: id(),
  description: text().required(),
  evidences: list('evidences', evidenceSchema).unique('id', { ignoreUndefined: true }),
});

const remedySchema = model<RemedyRequest>('RequestedRemedy', {
  id: id(),
  type: Joi.string()
    .valid(...REQUESTED_REMEDIES)
    .required(),
  description: text().required(),
});

const objectionSchema = (host: ComplaintHost) =>
  model<ObjectionRequest>('Objection', {
    id: id(),
    title: text().required(),
    description: text(),
    relatesTo: Joi.string()
      .valid(...RELATES_TO[host])
      .required(),
    relatedItem: text().required(),
    classification: model<Objection['classification']>('Classification', {
      scheme: Joi.string().valid('article_16', 'article_17', 'other', 'violation_amcu', 'amcu', 'amcu_24').required(),
      id: text().required(),
      description: text().required(),
    }).required(),
    requestedRemedies: list('requestedRemedies', remedySchema).min(1).unique('id', { ignoreUndefined: true }).required(),
    arguments: list('arguments', argumentSchema).min(1).unique('id', { ignoreUndefined: true }).required(),
    sequenceNumber: Joi.number().integer().min(0),
  });

const objections = (host: ComplaintHost) => list('objections', objectionSchema(host)).min(1).unique('id', { ignoreUndefined: true });

/** `ComplaintOrganization`: the complainant, its identifier naming `id` and `legalName`. */
const authorSchema = businessOrganizationSchema.fork(['identifier.id', 'identifier.legalName'], (s) => s.required());

/** A complaint document's metadata: a tender document's, which may also be a post's (`documentOf: post`). */
export const complaintDocumentPatch = documentPatchSchema([...TENDER_DOCUMENT_OF, 'post'], TENDER_DOCUMENT_TYPES, TENDER_DOCUMENT_FIELDS);

const postSchemaOf = (host: ComplaintHost) =>
  Joi.object<ComplaintRequest, true>({
    title: text().required(),
    description: text(),
    author: authorSchema.required(),
    // The reference requires `type` for tenders made under its 2020 rules, which are all the tenders here.
    type: Joi.string().valid('complaint').required(),
    status: Joi.string().valid('draft', 'pending'),
    relatedLot: md5(),
    objections: objections(host),
    documents: list('documents', bodyDocumentSchema(complaintDocumentPatch)),
  }).label('Complaint');

const draftPatchSchemaOf = (host: ComplaintHost) =>
  Joi.object<DraftPatch, true>({
    status: Joi.string().valid('draft', 'pending', 'mistaken'),
    title: text(),
    description: text(),
    author: authorSchema,
    objections: objections(host),
  }).label('Complaint');

const HOSTS: ComplaintHost[] = ['tender', 'award', 'cancellation'];
const byHost = <T>(make: (host: ComplaintHost) => T) => Object.fromEntries(HOSTS.map((h) => [h, make(h)])) as Record<ComplaintHost, T>;

export const postComplaintSchemas = byHost(postSchemaOf);
export const draftPatchSchemas = byHost(draftPatchSchemaOf);

export const botPatchSchema = Joi.object<BotPatch, true>({
  status: Joi.string().valid('pending', 'mistaken'),
  rejectReason: Joi.string().valid(...REJECT_REASONS),
}).label('Complaint');

/** The administrator's (`AdministratorPatchComplaint`): the fee, as the payment was made. */
export const adminPatchSchema = Joi.object<Pick<Complaint, 'value'>, true>({
  value: model<NonNullable<Complaint['value']>>('BasicValue', { amount: float().min(0).required(), currency: currency().required() }),
}).label('Complaint');

export const reviewPatchSchema = Joi.object<ReviewPatch, true>({
  status: Joi.string().valid('accepted', 'declined', 'satisfied', 'invalid', 'mistaken', 'stopped'),
  decision: text(),
  rejectReason: Joi.string().valid(...REJECT_REASONS),
  rejectReasonDescription: text(),
  reviewDate: isoDate(),
  reviewPlace: text(),
}).label('Complaint');

export const tendererPatchSchema = Joi.object<TendererPatch, true>({
  tendererAction: text(),
  status: Joi.string().valid('satisfied', 'resolved'),
}).label('Complaint');

/** The tender owner's change of a complaint under review: its action only. */
export const tendererActionSchema = Joi.object<Pick<TendererPatch, 'tendererAction'>, true>({ tendererAction: text() }).label('Complaint');

export type PostRequest = Pick<ComplaintPost, 'title' | 'description' | 'relatedObjection'> &
  Partial<Pick<ComplaintPost, 'recipient' | 'relatedPost'>>;

/** `CreateComplaintPost`: the members a party sends; `id`, `datePublished` and `author` are the server's. */
export const complaintPostSchema = Joi.object<PostRequest, true>({
  title: text().required(),
  description: text().required(),
  recipient: Joi.string().valid('complaint_owner', 'tender_owner', 'aboveThresholdReviewers'),
  relatedPost: text(),
  relatedObjection: text().required(),
}).label('ComplaintPost');

/** Every body a complaint's PATCH may carry, for the route table (the lifecycle picks the one of the caller's role). */
export const complaintPatchBodies = [
  botPatchSchema,
  adminPatchSchema,
  reviewPatchSchema,
  tendererPatchSchema,
  ...Object.values(draftPatchSchemas),
];

/** `PostAppeal`: what a party sends; `id`, the dates, `legislation` and `author` are the server's. */
export interface AppealPost {
  description: string;
  documents?: GivenDocument[];
}

/** `PatchAppeal`: the court's case only. */
export type AppealPatch = Pick<ComplaintAppeal, 'proceeding'>;

export const appealPostSchema = Joi.object<AppealPost, true>({
  description: text().required(),
  documents: list('documents', bodyDocumentSchema(tenderDocumentPatch)),
}).label('Appeal');

export const appealPatchSchema = Joi.object<AppealPatch, true>({
  proceeding: model<NonNullable<AppealPatch['proceeding']>>('Proceeding', {
    dateProceedings: isoDate().required(),
    proceedingNumber: text().required(),
  }),
}).label('Appeal');

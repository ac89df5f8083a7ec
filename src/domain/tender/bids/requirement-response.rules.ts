import { apiError } from '../../../http/errors';
import { newId } from '../../core/ids';
import type { BidRule } from '../procedure';
import { convert, expectedValuesMiss, py } from '../criteria/requirement-values';
import type {
  Bid,
  BidDocumentList,
  Criterion,
  Requirement,
  RequirementResponse,
  RequirementResponseRequest,
  ResponseValue,
  Tender,
} from '../tender.types';

/**
 * A bid's answers to the tender's criteria (docs/tenders.md §Requirement responses): HEAD's `RequirementResponse`,
 * `Evidence` and `BidResponsesMixin` (`tender/core/procedure/models/req_response.py`, `evidence.py`), with their
 * texts. A draft is checked for shape and value types only; a `pending` or `active` bid in full.
 */

const NAME = 'requirementResponses';
const refuse = (description: unknown) => apiError(422, description, { name: NAME });

/** Bid statuses in which the responses are checked in full (`ObjResponseMixin.validate_requirementResponses`). */
const CHECKED = ['pending', 'active'];

interface Found {
  requirement: Requirement;
  criterion: Criterion;
}

/** `get_requirement_obj`: an active requirement of the tender's criteria with its criterion. */
export function findRequirement(tender: Tender, id: unknown): Found | undefined {
  for (const criterion of tender.criteria ?? [])
    for (const group of criterion.requirementGroups ?? [])
      for (const requirement of [...(group.requirements ?? [])].reverse())
        if (requirement.id === id && (requirement.status ?? 'active') === 'active') return { requirement, criterion };
  return undefined;
}

/** `get_criterion_requirement`: the criterion holding a requirement of this id, whatever its status. */
export function criterionOf(tender: Tender, requirementId: unknown): Criterion | undefined {
  return (tender.criteria ?? []).find((c) =>
    (c.requirementGroups ?? []).some((g) => (g.requirements ?? []).some((r) => r.id === requirementId)),
  );
}

/** `apply_data_patch` on lists: element by element, objects member by member, recursively; the patch's length wins. */
function mergedByPosition(before: unknown, patch: unknown): unknown {
  if (Array.isArray(patch)) return patch.map((p, i) => mergedByPosition(Array.isArray(before) ? before[i] : undefined, p));
  if (patch && typeof patch === 'object' && before && typeof before === 'object' && !Array.isArray(before)) {
    const out: Record<string, unknown> = { ...before };
    for (const [k, v] of Object.entries(patch)) out[k] = mergedByPosition((before as Record<string, unknown>)[k], v);
    return out;
  }
  return patch;
}

/**
 * The responses as stored: the request's merged into the bid's by position (`apply_data_patch`), ids given to new
 * responses and evidences (`default=uuid4`), values converted to the requirement's `dataType` where they convert,
 * and `requirement.title` and `classification` copied from the tender's criteria, as HEAD's serializer shows them.
 */
export function respondedAs(
  tender: Tender,
  request: RequirementResponseRequest[],
  before: RequirementResponse[] = [],
): RequirementResponse[] {
  // The merge keeps the shape of the request, which the schema checked.
  return (mergedByPosition(before, request) as RequirementResponseRequest[]).map((merged) => {
    const withIds: RequirementResponseRequest = { id: newId(), ...merged };
    if (Array.isArray(withIds.evidences)) withIds.evidences = withIds.evidences.map((e) => ({ id: newId(), ...e }));
    // Ids given; a response without `requirement` the bid rules refuse (`fieldErrors`).
    const response = withIds as RequirementResponse;
    const found = response.requirement && findRequirement(tender, response.requirement.id);
    if (!found) return response;
    const { dataType } = found.requirement;
    const converted = (v: ResponseValue) => {
      const c = convert(dataType, v);
      return c.error === undefined ? c.value : v;
    };
    if (response.value !== undefined) response.value = converted(response.value);
    if (Array.isArray(response.values)) response.values = response.values.map(converted);
    response.requirement = { ...response.requirement, title: found.requirement.title };
    if (found.criterion.classification) response.classification = found.criterion.classification;
    return response;
  });
}

/** The errors of one response's own fields (`RequirementResponse`, `Evidence`), or null. */
/** `winnerIn`: the statuses in which a response to a `winner` criterion may carry evidences (`RequirementResponse.validate_evidences`). */
function fieldErrors(response: RequirementResponse, bid: Bid, tender: Tender, winnerIn: string[]): Record<string, unknown[]> | null {
  const errors: Record<string, unknown[]> = {};
  if (!response.requirement) errors.requirement = ['This field is required.'];
  const found = response.requirement && findRequirement(tender, response.requirement.id);
  const evidences = response.evidences ?? [];
  if (CHECKED.includes(bid.status)) {
    if (response.relatedItem && !(tender.items ?? []).some((i) => i.id === response.relatedItem)) {
      errors.relatedItem = ['relatedItem should be one of items'];
    }
    const withoutDocument = evidences.map((e) =>
      (e.type ?? 'statement') === 'document' && !e.relatedDocument ? { relatedDocument: ['This field is required.'] } : {},
    );
    if (withoutDocument.some((e) => e.relatedDocument)) errors.evidences = withoutDocument;
    else if (evidences.length && response.requirement) {
      const criterion = criterionOf(tender, response.requirement.id);
      const types = (found?.requirement.eligibleEvidences ?? []).map((e) => e.type);
      if (criterion?.source === 'winner' && !winnerIn.includes(tender.status)) {
        errors.evidences = [`available only in [${winnerIn.map((s) => `'${s}'`).join(', ')}] status`];
      } else if (types.length && evidences.some((e) => !types.includes(e.type ?? 'statement'))) {
        errors.evidences = [{ type: ['type should be one of eligibleEvidences types'] }];
      }
    }
  }
  const evidenceIds = evidences.map((e) => e.id);
  if (!errors.evidences && new Set(evidenceIds).size !== evidenceIds.length)
    errors.evidences = ['Evidence id should be uniq for all evidences'];
  if (found) {
    const { dataType } = found.requirement;
    const valueError = response.value ? convert(dataType, response.value).error : undefined;
    if (valueError) errors.value = [valueError];
    const valuesError = (response.values ?? []).map((v) => convert(dataType, v).error).find(Boolean);
    if (valuesError) errors.values = [valuesError];
  }
  return Object.keys(errors).length ? errors : null;
}

/**
 * `MatchResponseValue.match` for the requirements the tender's criteria can have (`expectedValue`, `minValue`,
 * `maxValue`, `expectedValues` with their counts).
 */
function matchValue(response: RequirementResponse, requirement: Requirement): void {
  const { value, values } = response;
  if (value === undefined && !values?.length) throw refuse([{ value: 'Response required at least one of field ["value", "values"]' }]);
  if (value !== undefined && values?.length) throw refuse([{ value: "Field 'value' conflicts with 'values'" }]);
  const { dataType, expectedValue, minValue, maxValue, id } = requirement;
  for (const raw of value !== undefined ? [value] : (values ?? [])) {
    const c = convert(dataType, raw);
    if (c.error !== undefined) throw refuse([{ value: [c.error] }]);
    const v = c.value as number;
    if (expectedValue !== undefined && convert(dataType, expectedValue).value !== v) {
      throw refuse([`Value "${py(v)}" does not match expected value "${py(expectedValue)}" in requirement ${id}`]);
    }
    if (minValue !== undefined && v < (convert(dataType, minValue).value as number)) {
      throw refuse([`Value ${py(v)} is lower than minimal required ${py(minValue)} in requirement ${id}`]);
    }
    if (maxValue !== undefined && v > (convert(dataType, maxValue).value as number)) {
      throw refuse([`Value ${py(v)} is higher than required ${py(maxValue)} in requirement ${id}`]);
    }
  }
  const answers = (value !== undefined ? [value] : (values ?? [])).map((v) => convert(dataType, v).value!);
  const miss = expectedValuesMiss(requirement, answers);
  if (miss) throw refuse([miss]);
}

export const BID_DOCUMENTS: BidDocumentList[] = ['documents', 'financialDocuments', 'eligibilityDocuments', 'qualificationDocuments'];

/** `ObjResponseMixin._validate_requirement_responses_data`: one response of a submitted bid against the criteria. */
function checkResponse(response: RequirementResponse, bid: Bid, tender: Tender): void {
  const found = findRequirement(tender, response.requirement.id);
  if (!found) throw refuse([{ requirement: ['Requirement should be one of criteria requirements'] }]);
  const source = found.criterion.source ?? 'tenderer';
  if (source === 'procuringEntity') {
    throw refuse([{ requirement: [`Requirement response in bid can't have requirement criteria with source: ${source}`] }]);
  }
  matchValue(response, found.requirement);
  const tenderers = (bid.tenderers ?? []).map((t) => t.identifier?.id);
  if (response.relatedTenderer && !tenderers.includes(response.relatedTenderer.id)) {
    throw refuse([{ relatedTenderer: ['relatedTenderer should be one of bid tenderers'] }]);
  }
  const documents = new Set(BID_DOCUMENTS.flatMap((k) => bid[k] ?? []).map((d) => d.id));
  for (const evidence of response.evidences ?? []) {
    if (evidence.relatedDocument && !documents.has(evidence.relatedDocument.id)) {
      throw refuse([{ evidences: [{ relatedDocument: ['relatedDocument.id should be one of bid documents'] }] }]);
    }
  }
}

/** The lot a criterion concerns (directly or through its item); `null` for an item that is gone: the criterion is skipped. */
function lotOf(criterion: Criterion, tender: Tender): string | undefined | null {
  if (criterion.relatesTo === 'lot') return criterion.relatedItem;
  if (criterion.relatesTo !== 'item') return undefined;
  const item = (tender.items ?? []).find((i) => i.id === criterion.relatedItem);
  return item ? item.relatedLot : null;
}

/**
 * `BidResponsesMixin._validate_requirement_responses_data`: every criterion of source `tenderer` or `winner` with
 * an active requirement, of the tender or of a lot the bid is for, answered in one group, every requirement of it.
 */
function checkCoverage(responses: RequirementResponse[], bid: Bid, tender: Tender): void {
  const answered = new Set(responses.map((r) => r.requirement.id));
  const bidLots = new Set((bid.lotValues ?? []).map((v) => v.relatedLot));
  const missed: string[] = [];
  const multiple: string[] = [];
  const partial: string[] = [];
  for (const criterion of tender.criteria ?? []) {
    const lot = lotOf(criterion, tender);
    if (lot === null || (lot && !bidLots.has(lot))) continue;
    if (!['tenderer', 'winner'].includes(criterion.source ?? 'tenderer')) continue;
    const groups = criterion.requirementGroups ?? [];
    if (!groups.some((g) => (g.requirements ?? []).some((r) => (r.status ?? 'active') === 'active'))) continue;
    const answeredGroups = groups
      .map((g) => {
        const ids = (g.requirements ?? []).filter((r) => r.status !== 'cancelled').map((r) => r.id);
        return { ids, answered: ids.filter((id) => answered.has(id)) };
      })
      .filter((g) => g.answered.length > 0);
    if (answeredGroups.length === 0) missed.push(criterion.id);
    else {
      if (answeredGroups.length > 1) multiple.push(criterion.id);
      if (answeredGroups[0].answered.length < new Set(answeredGroups[0].ids).size) partial.push(criterion.id);
    }
  }
  if (missed.length) {
    throw refuse([`Responses are required for all criteria with source tenderer/winner, failed for criteria ${missed.join(', ')}`]);
  }
  if (multiple.length) {
    throw refuse([`Responses are allowed for only one group of requirements per criterion, failed for criteria ${multiple.join(', ')}`]);
  }
  if (partial.length) {
    throw refuse([`Responses are required for all requirements in a requirement group, failed for criteria ${partial.join(', ')}`]);
  }
}

/** The bid's requirement responses, as the reference's bid model checks them (docs/tenders.md §Requirement responses). */
export const responsesAnswerCriteria: BidRule = (bid, tender, { windows }) => {
  const responses = bid.requirementResponses ?? [];
  const errors = responses.map((r) => fieldErrors(r, bid, tender, windows.winnerResponses));
  if (errors.some(Boolean)) throw refuse(errors.map((e) => e ?? {}));
  const ids = responses.map((r) => r.id);
  if (new Set(ids).size !== ids.length) throw refuse(['RequirementResponse id should be uniq for all requirementResponses']);
  const requirements = responses.map((r) => r.requirement.id);
  if (new Set(requirements).size !== requirements.length)
    throw refuse([{ requirement: 'Items should be unique by fields: requirement.id' }]);
  if (!CHECKED.includes(bid.status)) return;
  for (const response of responses) checkResponse(response, bid, tender);
  checkCoverage(responses, bid, tender);
};

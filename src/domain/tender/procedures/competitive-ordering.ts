import { apiError } from '../../../http/errors';
import type { AwardPolicy, BidRule, QuestionRule, TenderContext, TenderProcedure, TenderRule } from '../procedure';
import { either, only } from '../tender.config';
import { procurementMethodIs } from '../tender.rules';
import { createCompetitiveOrdering, patchCompetitiveOrdering } from './competitive-ordering.schema';
import { tenderDefaults, tenderingToEnd } from './shared-rules';
import {
  activateTendering,
  openTenderingChanges,
  tenderingExtendedOnChange,
  tenderingExtendedOnDocument,
  tenderingWithComputedEnquiries,
} from './open-tendering';
import { BID_RULES } from '../bids/bid.rules';
import { eligibleDecides, qualifiedToActivate } from '../awards/award.rules';
import { patchEligibleAward } from '../awards/award.schema';
import { createCompetitiveOrderingBid, patchCompetitiveOrderingBid } from '../bids/bid.schema';
import type { ObjectDoc } from '../../core/object-doc';
import type { Value } from '../../core/shapes';
import type { TenderContent } from '../tender.types';

/** What the tender reads of its pre-selection agreement (the agreement kind's `data`). */
interface SelectionAgreement {
  status: string;
  procuringEntity?: { identifier?: { scheme?: string; id?: string } };
  contracts?: { status: string; value?: Value; suppliers?: { identifier?: { scheme?: string; id?: string } }[] }[];
}
type SelectionContract = NonNullable<SelectionAgreement['contracts']>[number];
type Supplier = NonNullable<SelectionContract['suppliers']>[number];

/** The tender's pre-selection agreement, as stored (a competitiveOrdering tender names one). */
const agreementOf = async (t: TenderContent, session: TenderContext['session']) =>
  (await session.get('agreements', t.agreements![0].id))?.doc as ObjectDoc<SelectionAgreement> | undefined;

/**
 * Awards decided with `qualified` and `eligible`; a 5 working days' stand-still (spec-era `open/constants.py`
 * `STAND_STILL_TIME`) before the contract is signed and the lot closes (docs/tenders.md §Awards).
 */
const AWARDS: AwardPolicy = {
  create: null,
  schema: patchEligibleAward,
  rules: [qualifiedToActivate, eligibleDecides],
  standStill: { days: 5, working: true },
  refusalStandStill: true,
  skipStandStill: false,
};

const fail = (text: string) => apiError(422, text, { name: 'agreements' });

/**
 * The pre-selection agreement (framework side) is active, has at least 3 active contracts and the tender's
 * procuring entity; checked on activation with the spec era's texts (docs/tenders.md §Pre-selection agreement).
 */
const agreementAllowsSelection: TenderRule = async (t, { session, config }) => {
  const stored = await agreementOf(t, session);
  if (!stored) throw fail('agreement[0] not found in agreements');
  const agreement = stored.data;
  if (agreement.status !== 'active') throw fail('agreements[0] status is not active');
  const active = (agreement.contracts ?? []).filter((c) => c.status === 'active').length;
  if (active < 3) throw fail('agreements[0] has less than 3 active contracts');
  const ours = t.procuringEntity.identifier;
  const theirs = agreement.procuringEntity?.identifier ?? {};
  if (ours.scheme !== theirs.scheme || ours.id !== theirs.id) {
    throw fail(
      'tender.procuringEntity.identifier (scheme or id), doesnt match tender.agreements[0].procuringEntity.identifier (scheme of id)',
    );
  }
  if (!!config.restricted !== !!stored.config?.restricted) {
    throw apiError(422, stored.config?.restricted ? 'Value must be True.' : 'Value must be False.', { name: 'restricted' });
  }
};

/** The agreement's first active contract with a supplier that `is` accepts. */
async function contractWith(t: TenderContent, is: (supplier: Supplier) => boolean, { session }: TenderContext) {
  const agreement = (await agreementOf(t, session))?.data;
  return (agreement?.contracts ?? []).find((c) => c.status === 'active' && (c.suppliers ?? []).some(is));
}

/** Only suppliers of the agreement's active contracts may ask (the reference's `ask-question-invalid-author`). */
const askedByQualifiedSupplier: QuestionRule = async (t, author, ctx) => {
  const same = (s: Supplier) => s.identifier?.scheme === author.identifier.scheme && s.identifier?.id === author.identifier.id;
  if (!(await contractWith(t, same, ctx))) throw apiError(403, 'Forbidden to add question for non-qualified suppliers');
};

/**
 * Only suppliers of the agreement's active contracts may bid, within their contract's value (spec-era
 * `BidState.validate_bid_vs_agreement`, docs/tenders.md §Bids).
 */
const bidderInAgreement: BidRule = async (bid, t, ctx) => {
  // `get_supplier_contract` compares identifier ids only.
  const ids = new Set((bid.tenderers ?? []).map((o) => o.identifier?.id));
  const contract = await contractWith(t, (s) => ids.has(s.identifier?.id), ctx);
  if (!contract) throw apiError(403, 'Bid is not a member of agreement');
  const amount = bid.lotValues?.[0]?.value?.amount;
  if (amount !== undefined && contract.value && amount > contract.value.amount) {
    throw apiError(403, "Bid value.amount can't be greater than contact value.amount.");
  }
};

export const competitiveOrdering: TenderProcedure = {
  type: 'competitiveOrdering',
  procurementMethod: 'selective',
  accreditation: { create: ['3', '5'] },
  phases: [
    { status: 'draft', bids: 'sealed', ends: { by: "the owner's activation" } },
    ...tenderingToEnd(() => competitiveOrdering, AWARDS),
  ],
  ...openTenderingChanges,
  config: {
    hasAuction: either(true),
    hasAwardingOrder: either(true),
    hasValueRestriction: either(false),
    valueCurrencyEquality: either(true),
    hasPrequalification: only(false),
    minBidsNumber: { type: 'integer', minimum: 1, maximum: 1, default: 1 },
    hasPreSelectionAgreement: only(true),
    hasTenderComplaints: only(false),
    hasAwardComplaints: only(false),
    hasCancellationComplaints: only(false),
    restricted: either(false),
  },
  schemas: { create: createCompetitiveOrdering, patch: patchCompetitiveOrdering },
  rules: {
    save: [...tenderDefaults.rules.save, procurementMethodIs('selective'), tenderingExtendedOnChange],
    activate: [...tenderDefaults.rules.activate, agreementAllowsSelection],
    question: [...tenderDefaults.rules.question, askedByQualifiedSupplier],
    document: [tenderingExtendedOnDocument],
  },
  bids: {
    accreditation: ['4'],
    schemas: { create: createCompetitiveOrderingBid, patch: patchCompetitiveOrderingBid },
    rules: [...BID_RULES, bidderInAgreement],
  },
  awards: AWARDS,
  periods: tenderingWithComputedEnquiries,
  activate: activateTendering,
};

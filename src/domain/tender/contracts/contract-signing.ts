import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../../http/errors';
import type { Change, StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import type { TenderLink } from '../../contract';
import type { Contract } from '../../contract/contract.types';
import { checkTenderStatus } from '../awards/check-tender-status';
import type { AwardPolicy } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { tenderChange, tenderOf, type StoredTender } from '../tender-aggregate';
import type { Award } from '../tender.types';
import { anyHolds } from '../complaints/complaint-holds';

/**
 * Signing a contract of an award (docs/contracts.md §Contracts from awards), as the spec-era reference's
 * `EContractState`: the checks against the award, then the tender's copy (`synchronize_contracts_data`: status and
 * value, while the contract was pending) and `check_tender_status`, which completes the lot and the tender.
 */

/** `validate_dateSigned`: after the award's activation (or its stand-still, where contracts wait for it). */
function validateDateSigned(after: Contract, before: Contract, award: Award, policy: AwardPolicy): void {
  if (!after.dateSigned || after.dateSigned === before.dateSigned || !award.complaintPeriod) return;
  const signed = Date.parse(after.dateSigned);
  const { startDate, endDate } = award.complaintPeriod;
  if (!policy.skipStandStill && endDate && signed <= Date.parse(endDate)) {
    throw apiError(422, [`Contract signature date should be after award complaint period end date (${endDate})`], { name: 'dateSigned' });
  }
  if (policy.skipStandStill && startDate && signed <= Date.parse(startDate)) {
    throw apiError(422, [`Contract signature date should be after award activation date (${startDate})`], { name: 'dateSigned' });
  }
}

/** `validate_update_contract_value_with_award`: no more than the award's value. */
function validateValueWithAward(after: Contract, before: Contract, award: Award): void {
  const value = after.value;
  const changed = JSON.stringify(value) !== JSON.stringify(before.value) || after.status !== before.status;
  if (!value || !changed || !award.value) return;
  const awarded = award.value.amount;
  if (value.valueAddedTaxIncluded && !award.value.valueAddedTaxIncluded) {
    if ((value.amountNet ?? 0) > awarded) throw apiError(403, 'AmountNet should be less or equal to awarded amount', { name: 'value' });
  } else if ((value.amount ?? 0) > awarded) {
    throw apiError(403, 'Amount should be less or equal to awarded amount', { name: 'value' });
  }
}

/** `validate_contract_signing`: not before the award's activation (or the end of its stand-still). */
function validateContractSigning(after: Contract, before: Contract, award: Award, policy: AwardPolicy, now: Date): void {
  if (before.status === 'active' || after.status !== 'active') return;
  // An award's complaints hold its contract beyond the stand-still (docs/tenders.md §Complaints: what a complaint holds).
  if (anyHolds(award.complaints)) throw apiError(403, "Can't sign contract before reviewing all complaints");
  const { startDate, endDate } = award.complaintPeriod ?? {};
  if (!policy.skipStandStill && endDate && Date.parse(endDate) > now.getTime()) {
    throw apiError(403, `Can't sign contract before stand-still period end (${endDate})`);
  }
  if (policy.skipStandStill && startDate && Date.parse(startDate) > now.getTime()) {
    throw apiError(403, `Can't sign contract before award activation date (${startDate})`);
  }
}

/** `validate_required_signed_info` (`ECONTRACT_SIGNER_INFO_REQUIRED`): the buyer and every supplier name a signer. */
function validateRequiredSignedInfo(after: Contract, before: Contract): void {
  if (before.status === 'active' || after.status !== 'active') return;
  if (!after.buyer?.signerInfo || !(after.suppliers ?? []).every((s) => s.signerInfo)) {
    throw apiError(422, `signerInfo field for buyer and suppliers is required for contract in \`${after.status}\` status`);
  }
}

/** The tender link of contracts made from awards: the checks, `dateSigned` on signing, the tender's update. */
export const tenderContractLink: TenderLink = async (session: StoreSession, after, before, now, activeChecks): Promise<Change[]> => {
  const tenderStored = await session.get('tenders', after.tender_id);
  const tender = tenderStored && structuredClone(tenderOf((tenderStored as StoredTender).doc));
  const award = tender?.awards?.find((a) => a.id === after.awardID);
  const copy = tender?.contracts?.find((c) => c.id === after.id);
  // A contract the contracting system posted itself has no copy in the tender: nothing to check it against.
  if (!tender || !award || !copy) {
    activeChecks();
    return [];
  }
  const procedure = procedureOfStored(tender);
  validateDateSigned(after, before, award, procedure.awards);
  if (before.status === 'pending') {
    validateContractSigning(after, before, award, procedure.awards, now);
    validateValueWithAward(after, before, award);
  }
  activeChecks();
  validateRequiredSignedInfo(after, before);
  if (after.status === 'active' && !after.dateSigned) after.dateSigned = formatKyiv(now);
  const synced = { status: after.status, value: after.value ?? copy.value, items: after.items ?? copy.items };
  if (before.status !== 'pending' || isDeepStrictEqual(synced, { status: copy.status, value: copy.value, items: copy.items })) return [];
  // The tender's copy follows the contract's status, value and items while it is pending (docs/contracts.md §Contract items).
  Object.assign(copy, synced);
  const { doc } = tenderStored as StoredTender;
  checkTenderStatus(tender, now, doc.config ?? {}, procedure.awards);
  const data = { ...tender, dateModified: formatKyiv(now) };
  return [tenderChange(tenderStored as StoredTender, data, { writes: ['contracts'] })];
};

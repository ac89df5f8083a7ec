import { apiError } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { calculateFullDate } from '../../time/periods';
import { newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import type { Document } from '../core/shapes';
import { validated } from '../core/validation';
import { withAgreementNextCheck } from './agreement.events';
import { createMilestoneSchema, patchMilestoneSchema, type MilestoneRequest } from './milestone.schema';
import type { Agreement, AgreementContract, AgreementDoc, Milestone } from './agreement.types';
import { itemById, itemsOf } from '../core/items';

/**
 * Agreement contracts and their milestones (beyond the spec; docs/frameworks.md §Agreement contracts and milestones): the framework owner
 * bans a supplier for 90 days (`ban` milestone: the contract is `suspended` until the chronograph lifts it) or ends
 * its participation (`activation` milestone `met`: the contract is `terminated`).
 */
const CONTRACT_BAN_DURATION = { days: 90, working: false };
const OPEN_CONTRACT = ['active', 'suspended'];

export const contractsOf = (agreement: Agreement): AgreementContract[] => itemsOf(agreement, 'contracts');
export const findContract = (agreement: Agreement, contractId: string) => itemById(agreement, 'contracts', contractId, 'contract_id');
export const findMilestone = (contract: AgreementContract, milestoneId: string) =>
  itemById(contract, 'milestones', milestoneId, 'milestone_id');

function requireOpen(agreement: Agreement, contract: AgreementContract, verb: 'add' | 'update'): void {
  if (agreement.status !== 'active') throw apiError(403, `Can't ${verb} object in current (${agreement.status}) agreement status`);
  if (!OPEN_CONTRACT.includes(contract.status)) throw apiError(403, `Can't ${verb} object in current (${contract.status}) contract status`);
}

/** The agreement with one contract replaced, dated `stamp`, its `next_check` recomputed. */
function withContractChanged(agreement: AgreementDoc, changed: AgreementContract, stamp: string): AgreementDoc {
  const contracts = contractsOf(agreement.data).map((c) => (c.id === changed.id ? { ...changed, date: stamp, dateModified: stamp } : c));
  return withAgreementNextCheck({ ...agreement, data: { ...agreement.data, contracts, dateModified: stamp } });
}

/** `POST …/milestones` by the framework owner: only a `ban`, which suspends an active contract for 90 days. */
export async function addMilestone(
  session: StoreSession,
  stored: StoredObject<AgreementDoc>,
  contractId: string,
  body: Record<string, unknown>,
  now: Date,
): Promise<Milestone> {
  const agreement = stored.doc;
  const contract = findContract(agreement.data, contractId);
  const input = validated<MilestoneRequest>(createMilestoneSchema, body);
  requireOpen(agreement.data, contract, 'add');
  if (input.type === 'activation') throw apiError(403, "Can't add object for 'activation' milestone");
  if (contract.status === 'suspended') throw apiError(403, `Can't add ${input.type} milestone for contract in suspended status`);
  const stamp = formatKyiv(now);
  const documents = input.documents?.map((d): Document => ({
    language: 'uk',
    id: newId(),
    ...d,
    datePublished: stamp,
    dateModified: stamp,
  }));
  const milestone: Milestone = {
    // The documents as given are replaced by the dated ones, in their place.
    ...(input as Omit<MilestoneRequest, 'documents'>),
    ...(documents ? { documents } : {}),
    status: 'scheduled',
    id: newId(),
    dueDate: formatKyiv(calculateFullDate(now, CONTRACT_BAN_DURATION, { ceil: true })),
    dateModified: stamp,
  };
  const changed: AgreementContract = { ...contract, status: 'suspended', milestones: [...itemsOf(contract, 'milestones'), milestone] };
  await session.commit([updateOf(stored, withContractChanged(agreement, changed, stamp))]);
  return milestone;
}

/** `PATCH …/milestones/{id}` by the framework owner: the activation milestone `met` terminates the contract. */
export async function changeMilestone(
  session: StoreSession,
  stored: StoredObject<AgreementDoc>,
  { contractId, milestoneId }: { contractId: string; milestoneId: string },
  body: Record<string, unknown>,
  now: Date,
): Promise<Milestone> {
  const agreement = stored.doc;
  const contract = findContract(agreement.data, contractId);
  const milestone = findMilestone(contract, milestoneId);
  const { status } = validated<Pick<Milestone, 'status' | 'description'>>(patchMilestoneSchema, body);
  requireOpen(agreement.data, contract, 'update');
  if (milestone.type === 'ban') throw apiError(403, "Can't patch `ban` milestone");
  if (milestone.status !== 'scheduled') throw apiError(403, `Can't update milestone in current (${milestone.status}) status`);
  if (status !== 'met') throw apiError(403, `Can't switch milestone status from \`${milestone.status}\` to \`${status}\``);
  const stamp = formatKyiv(now);
  const met: Milestone = { ...milestone, status: 'met', dateModified: stamp, dateMet: stamp };
  const milestones = contract.milestones.map((m): Milestone => {
    if (m.id === milestoneId) return met;
    return m.status === 'scheduled' ? { ...m, status: 'notMet', dateModified: stamp } : m;
  });
  const changed: AgreementContract = { ...contract, status: 'terminated', milestones };
  await session.commit([updateOf(stored, withContractChanged(agreement, changed, stamp))]);
  return met;
}

import Joi from 'joi';
import { list } from '../core/lists';
import {
  businessOrganizationSchema,
  contractValueSchema,
  documentSchema,
  itemKeys,
  md5,
  periodSchema,
  procuringEntitySchema,
  unitSchema,
} from '../core/parts.schema';
import { text, translated } from '../core/organization.schema';
import type { Translated } from '../core/shapes';
import { isoDate } from '../core/validation';
import type { Contract, ContractChange, ContractItem } from './contract.types';

/** Contract request shapes (spec: Contract); `Joi.object<T, true>` holds each to the contract's types (contract.types.ts). */
type Rationale = keyof Translated<'rationale'>;

const changeSchema = Joi.object<Pick<ContractChange, 'id' | Rationale | 'rationaleTypes' | 'date' | 'dateSigned'>, true>({
  id: md5(),
  ...translated('rationale'),
  rationaleTypes: list('rationaleTypes', text()),
  date: isoDate(),
  dateSigned: isoDate(),
})
  .label('Change')
  .fork(['rationale'], (s) => s.required());

const editable = {
  ...translated('title'),
  ...translated('description'),
  contractNumber: text(),
  period: periodSchema,
  value: contractValueSchema,
  dateSigned: isoDate(),
};

type Editable = keyof Translated<'title'> | keyof Translated<'description'> | 'contractNumber' | 'period' | 'value' | 'dateSigned';

/** HEAD's contract item `Attribute` (docs/tenders.md §Contracts of a tender): a name and the answer, any JSON. */
const attributeSchema = Joi.object({
  name: text().required(),
  unit: unitSchema,
  value: Joi.any(),
  values: list('values', Joi.any().required()),
}).label('Attribute');

/** What the contracting system gives of a new contract. */
export type ContractRequest = Pick<
  Contract,
  Editable | 'changes' | 'tender_id' | 'awardID' | 'suppliers' | 'procuringEntity' | 'buyer' | 'documents'
> & { items?: ContractItemRequest[] };

/**
 * A tender item with the attributes its winner's answers made (parts.schema.ts `itemSchema` and `attributes`); its
 * `unit` optional, as the contracting `Item` has it (docs/contracts.md §Contract items).
 */
const contractItemSchema = Joi.object({ ...itemKeys, attributes: list('attributes', attributeSchema) })
  .label('Item')
  .fork(['description'], (s) => s.required())
  .fork(['unit'], (s) => s.optional());

/** What a PATCH gives of a contract's items: each with its `id`, or a new one without. */
export type ContractItemRequest = Omit<ContractItem, 'id'> & { id?: string };

/** `POST /contracts` from the contracting system: the tender it comes from and the award's parties and items. */
export const createContract = Joi.object<ContractRequest, true>({
  ...editable,
  changes: list('changes', changeSchema),
  tender_id: md5().required(),
  awardID: md5(),
  items: list('items', contractItemSchema),
  suppliers: list('suppliers', businessOrganizationSchema).min(1).required(),
  procuringEntity: procuringEntitySchema,
  buyer: procuringEntitySchema,
  documents: list('documents', documentSchema),
});

/** What the owner's PATCH gives. */
export type ContractPatch = Partial<Pick<Contract, Editable | 'status'>> & { items?: ContractItemRequest[] };

/**
 * Owner PATCH: status, period, value (with amountNet), dateSigned, items (docs/contracts.md §Contract items); changes
 * have their own route (docs/platform.md §Server-managed arrays).
 */
export const patchContract = Joi.object<Required<ContractPatch>, true>({
  ...editable,
  status: Joi.string().valid('pending', 'active', 'terminated', 'cancelled'),
  items: list('items', contractItemSchema).min(1).unique('id', { ignoreUndefined: true }),
});

/** `RATIONALE_TYPES`: why a contract may change, for contracts that carry no `contractChangeRationaleTypes` of their own. */
export const CONTRACT_CHANGE_RATIONALE_TYPES = [
  'durationExtension',
  'fiscalYearExtension',
  'itemPriceChange',
  'priceReductionWithoutQuantity',
  'qualityImprovement',
  'taxationSystem',
  'externalIndicators',
  'volumeCuts',
  'restoration',
  'projectDocumentation',
  'emergencyReconstruction',
  'infrastructureProtection',
  'externalCofinancing',
  'emergencyElectricitySupply',
];

const changeMembers = {
  ...translated('rationale'),
  rationaleTypes: list('rationaleTypes', text()).min(1),
  contractNumber: text(),
  dateSigned: isoDate(),
};

/** What the owner gives of a change. */
export type ChangeRequest = Pick<ContractChange, Rationale | 'rationaleTypes' | 'contractNumber' | 'dateSigned'>;

/** POST /contracts/{id}/changes `data`. */
export const postChangeSchema = Joi.object<ChangeRequest, true>(changeMembers).fork(['rationale', 'rationaleTypes'], (s) => s.required());

/** PATCH /contracts/{id}/changes/{change_id} `data`: the same members, none required, and the status. */
export const patchChangeSchema = Joi.object<ChangeRequest & Pick<ContractChange, 'status'>, true>({
  ...changeMembers,
  status: Joi.string().valid('pending', 'active'),
});

import Joi from 'joi';
import { list } from '../core/lists';
import {
  signerInfoSchema,
  businessOrganizationSchema,
  contractValueSchema,
  documentSchema,
  itemSchema,
  md5,
  periodSchema,
  procuringEntitySchema,
} from '../core/parts.schema';
import { isoDate } from '../core/validation';

/** Contract request shapes (spec: Contract). */
const text = () => Joi.string().min(1);
const translated = (name: string) => ({ [name]: text(), [`${name}_en`]: text(), [`${name}_ru`]: text() });

const changeSchema = Joi.object({
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

/** `POST /contracts` from the contracting system: the tender it comes from and the award's parties and items. */
export const createContract = Joi.object({
  ...editable,
  changes: list('changes', changeSchema),
  tender_id: md5().required(),
  awardID: md5(),
  items: list('items', itemSchema),
  suppliers: list('suppliers', businessOrganizationSchema).min(1).required(),
  procuringEntity: procuringEntitySchema,
  buyer: procuringEntitySchema,
  documents: list('documents', documentSchema),
});

/** Owner PATCH: status, period, value (with amountNet), dateSigned; changes have their own route (docs/platform.md §Server-managed arrays). */
export const patchContract = Joi.object({
  ...editable,
  status: Joi.string().valid('pending', 'active', 'terminated', 'cancelled'),
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

/** POST /contracts/{id}/changes `data`. */
export const postChangeSchema = Joi.object(changeMembers).fork(['rationale', 'rationaleTypes'], (s) => s.required());

/** PATCH /contracts/{id}/changes/{change_id} `data`: the same members, none required, and the status. */
export const patchChangeSchema = Joi.object({ ...changeMembers, status: Joi.string().valid('pending', 'active') });

/** PUT /contracts/{id}/{buyer,suppliers}/signer_info `data`: the econtract `SignerInfo`, every member required, the IBAN 15 to 33 characters. */
export const putSignerInfoSchema = signerInfoSchema
  .keys({ iban: Joi.string().min(15).max(33) })
  .fork(['name', 'email', 'telephone', 'iban', 'position', 'authorizedBy'], (s) => s.required());

import Joi from 'joi';
import { list } from '../core/lists';
import { classificationSchema, procuringEntityPatchSchema, procuringEntitySchema, text, translated } from '../core/organization.schema';
import type { Translated } from '../core/shapes';
import { isoDate } from '../core/validation';
import type { Framework, FrameworkChange, FrameworkConfig } from './framework.types';

/**
 * One schema per operation (docs/architecture.md §Where rules live); unknown members are the reference's `Rogue field`.
 * `Joi.object<T, true>` holds a schema's members to the framework's types.
 */
const items = () => list('items', Joi.object().unknown(true));

/** The members a client gives at creation; the server sets the rest. */
export type FrameworkRequest = Pick<
  Framework,
  | 'frameworkType'
  | 'status'
  | 'mode'
  | keyof Translated<'title'>
  | keyof Translated<'description'>
  | 'procuringEntity'
  | 'classification'
  | 'additionalClassifications'
  | 'qualificationPeriod'
  | 'items'
  | 'frameworkDetails'
>;

/** POST /frameworks `data` (docs/frameworks.md §Framework creation). */
export const createFrameworkSchema = Joi.object<FrameworkRequest, true>({
  frameworkType: Joi.string().valid('dynamicPurchasingSystem').required(),
  status: Joi.string().valid('draft'),
  mode: Joi.string().valid('test'),
  ...translated('title'),
  ...translated('description'),
  procuringEntity: procuringEntitySchema.required(),
  classification: classificationSchema.required(),
  additionalClassifications: list('additionalClassifications', classificationSchema),
  qualificationPeriod: Joi.object({ endDate: isoDate().required() }).required(),
  items: items(),
  // Sandbox only (`refuseSandboxDetails`): `quick, accelerator=N` divides every period by N.
  frameworkDetails: text(),
}).fork(['title'], (s) => s.required());

/** PATCH of a draft framework that does not activate it (`PatchFramework`). */
export const patchDraftFrameworkSchema = Joi.object<Omit<FrameworkRequest, 'frameworkType' | 'mode'>, true>({
  status: Joi.string().valid('active', 'complete', 'unsuccessful'),
  ...translated('title'),
  ...translated('description'),
  procuringEntity: procuringEntityPatchSchema,
  classification: classificationSchema,
  additionalClassifications: list('additionalClassifications', classificationSchema),
  qualificationPeriod: Joi.object({ endDate: isoDate().required() }),
  items: items(),
  frameworkDetails: text(),
});

/**
 * PATCH whose resulting status is `active` (`PatchActiveFramework`), activation included: so activation is
 * a request of its own, and only the description and the contact point stay editable afterwards.
 */
export const patchActiveFrameworkSchema = Joi.object<
  Pick<FrameworkRequest, 'status' | keyof Translated<'description'> | 'procuringEntity'>,
  true
>({
  status: Joi.string().valid('active', 'complete', 'unsuccessful'),
  ...translated('description'),
  procuringEntity: Joi.object({ contactPoint: procuringEntityPatchSchema.extract('contactPoint') }),
});

/** `config` of a dynamicPurchasingSystem framework (standards `FrameworkConfig/dynamicPurchasingSystem.json`). */
export const frameworkConfigSchema = Joi.object<FrameworkConfig, true>({
  restrictedDerivatives: Joi.boolean().strict(),
  clarificationUntilDuration: Joi.number().strict().integer().min(3).max(3).default(3),
  qualificationComplainDuration: Joi.number().strict().integer().min(0).max(0).default(0),
  hasItems: Joi.boolean().strict().default(false),
});

/**
 * Causes of a qualification-period change (standards codelist `framework_period_change_causes`): for each, the
 * `rationale` it requires, or null where any rationale goes. Only the causes the reference's recordings show.
 */
export const PERIOD_CHANGE_CAUSES: Record<string, string | null> = {
  noDemandFramework: 'Відсутня подальша потреба в закупівлі з використанням рамкової угоди',
  other: null,
};

/** What a client gives of a qualification-period change. */
export type FrameworkChangeRequest = Pick<FrameworkChange, 'modifications' | 'rationaleType' | keyof Translated<'rationale'>>;

/** POST /frameworks/{id}/changes `data` (docs/frameworks.md §Framework changes). */
export const frameworkChangeSchema = Joi.object<FrameworkChangeRequest, true>({
  modifications: Joi.object({
    qualificationPeriod: Joi.object({ startDate: isoDate(), endDate: isoDate() }).label('Period'),
  }).required(),
  rationaleType: Joi.string()
    .valid(...Object.keys(PERIOD_CHANGE_CAUSES))
    .required(),
  rationale: text().required(),
  rationale_en: text(),
  rationale_ru: text(),
});

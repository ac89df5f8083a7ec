import Joi from 'joi';
import { text } from '../../core/organization.schema';
import { list } from '../../core/lists';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import type {
  Criterion,
  CriterionClassification,
  CriterionRequest,
  EligibleEvidence,
  Legislation,
  Requirement,
  RequirementGroupRequest,
  RequirementRequest,
  ResponseValue,
} from '../tender.types';
import { convert } from './requirement-values';
import { model, unitSchema } from '../../core/parts.schema';

/**
 * Criterion (spec: Criterion): the request shape, server-set ids, and the template of the spec's list. `model<T>`
 * builds `Joi.object<T, true>`, which holds each schema's members to the tender's types (tender.types.ts).
 */

const evidenceSchema = model<Omit<EligibleEvidence, 'id'>>('EligibleEvidence', {
  title: text(),
  description: text(),
  type: Joi.string().valid('document', 'statement'),
});
/** The requirement a member's check is run in (joi's ancestors are untyped). */
const requirementOf = (h: Joi.CustomHelpers): RequirementRequest => (h.state.ancestors as RequirementRequest[])[0];

const anyValue = () => Joi.alternatives(Joi.boolean(), Joi.string(), Joi.number());

/**
 * HEAD's `PostRequirement` checks of a choice of answers (`validate_expectedValues`), on the members that bring it,
 * so a requirement without them passes as before (docs/tenders.md §Criteria): each value of the `dataType`, none
 * beside `minValue`, `maxValue` or `expectedValue`, and counts within the list.
 */
const expectedValuesSchema = list('values', anyValue())
  .min(1)
  .custom((values: ResponseValue[], h) => {
    const r = requirementOf(h);
    if (r.minValue !== undefined || r.maxValue !== undefined || r.expectedValue !== undefined) {
      return h.message({ custom: "expectedValues conflicts with ['minValue', 'maxValue', 'expectedValue']" });
    }
    const wrong = values.map((v) => convert(r.dataType, v).error).find(Boolean);
    if (wrong) return h.message({ custom: wrong });
    const { expectedMinItems: min, expectedMaxItems: max } = r;
    if (min && max && min > max) return h.message({ custom: "expectedMinItems couldn't be higher then expectedMaxItems" });
    if (min && min > values.length) {
      return h.message({ custom: "expectedMinItems couldn't be higher then count of items in expectedValues" });
    }
    if (max && max > values.length) {
      return h.message({ custom: "expectedMaxItems couldn't be higher then count of items in expectedValues" });
    }
    return values;
  });

const WITHOUT_VALUES = 'requirement.withoutValues';

/** `expectedMinItems`/`expectedMaxItems`: an integer from 1, and only with `expectedValues` (reported there, as HEAD does). */
const itemCount = () =>
  Joi.number()
    .integer()
    .custom((n: number, h) => {
      if (n < 1) return h.message({ custom: 'Int value should be greater than or equal to 1.' });
      if (requirementOf(h).expectedValues !== undefined) return n;
      return h.error(WITHOUT_VALUES, {}, h.state.localize!([...(h.state.path ?? []).slice(0, -1), 'expectedValues'], h.state.ancestors));
    })
    .messages({ [WITHOUT_VALUES]: "expectedMinItems and expectedMaxItems couldn't exist without expectedValues" });

const requirementSchema = model<RequirementRequest>('Requirement', {
  title: text().required(),
  description: text(),
  dataType: Joi.string().valid('boolean', 'string', 'number', 'integer').required(),
  // HEAD's conflict of `expectedValue` with the other bounds is checked only against `expectedValues`, which it came with.
  expectedValue: anyValue().custom((v: ResponseValue, h) =>
    v && requirementOf(h).expectedValues !== undefined
      ? h.message({ custom: "expectedValue conflicts with ['minValue', 'maxValue', 'expectedValues']" })
      : v,
  ),
  expectedValues: expectedValuesSchema,
  expectedMinItems: itemCount(),
  expectedMaxItems: itemCount(),
  dataSchema: Joi.string().valid('ISO 639-3', 'ISO 3166-1 alpha-2'),
  minValue: Joi.number(),
  maxValue: Joi.number(),
  eligibleEvidences: list('eligibleEvidences', evidenceSchema),
  // HEAD's criterion `Unit`: a name is required; it names the unit of the contract item attribute made of the answer.
  unit: unitSchema.fork(['name'], (s) => s.required()),
});

export const criterionSchema = model<CriterionRequest>('Criterion', {
  title: text().required(),
  description: text(),
  source: Joi.string().valid('tenderer', 'procuringEntity', 'winner'),
  relatesTo: Joi.string().valid('tenderer', 'item', 'lot', 'tender'),
  relatedItem: text(),
  classification: model<CriterionClassification>('Classification', {
    scheme: text().required(),
    id: text().required(),
    description: text(),
  }).required(),
  legislation: list(
    'legislation',
    model<Legislation>('Legislation', {
      version: text(),
      identifier: model<NonNullable<Legislation['identifier']>>('Identifier', { id: text(), legalName: text(), uri: text() }),
      type: Joi.string().valid('NATIONAL_LEGISLATION'),
      article: text(),
    }),
  ),
  requirementGroups: list(
    'requirementGroups',
    model<RequirementGroupRequest>('RequirementGroup', {
      description: text().required(),
      requirements: list('requirements', requirementSchema).min(1).required(),
    }),
  )
    .min(1)
    .required(),
});

/** `POST /tenders/{id}/criteria` takes a list (bulk create, docs/tenders.md §Criteria). */
export const criteriaListSchema = list('criteria', criterionSchema).min(1);

/** A requirement's eligible evidences with their ids, each member where the request put it. */
function withEvidenceIds(requirement: RequirementRequest): Omit<Requirement, 'id' | 'status' | 'datePublished'> {
  const { eligibleEvidences, ...rest } = requirement;
  return eligibleEvidences ? { ...requirement, eligibleEvidences: eligibleEvidences.map((e) => ({ id: newId(), ...e })) } : rest;
}

/** Server-set parts: ids everywhere, requirement `status: active` and `datePublished` (docs/tenders.md §Criteria). */
export function withServerFields(criterion: CriterionRequest, now: Date): Criterion {
  return {
    id: newId(),
    ...criterion,
    requirementGroups: criterion.requirementGroups.map((g) => ({
      id: newId(),
      ...g,
      requirements: g.requirements.map((r) => ({ id: newId(), ...withEvidenceIds(r), status: 'active', datePublished: formatKyiv(now) })),
    })),
  };
}

interface CriterionTemplate {
  id: string;
  source: NonNullable<Criterion['source']>;
  title: string;
  article: string;
  requirement: string;
}

const LAW_922 = { id: '922-VIII', legalName: 'Закон України "Про публічні закупівлі"', uri: 'https://zakon.rada.gov.ua/laws/show/922-19' };

/** The spec's list of criteria a competitiveOrdering tender carries once active, in the spec's order. */
const COMPETITIVE_ORDERING_CRITERIA: CriterionTemplate[] = [
  {
    id: 'CRITERION.EXCLUSION.CONVICTIONS.PARTICIPATION_IN_CRIMINAL_ORGANISATION',
    source: 'tenderer',
    article: '17.1.5',
    title: 'Вчинення злочинів, учинених з корисливих мотивів',
    requirement: 'Учасника не було притягнуто до відповідальності за вчинення злочину з корисливих мотивів',
  },
  {
    id: 'CRITERION.EXCLUSION.CONVICTIONS.FRAUD',
    source: 'tenderer',
    article: '17.1.5',
    title: 'Шахрайство',
    requirement: 'Учасника не було засуджено за шахрайство',
  },
  {
    id: 'CRITERION.EXCLUSION.CONVICTIONS.CORRUPTION',
    source: 'tenderer',
    article: '17.1.3',
    title: 'Корупція',
    requirement: 'Учасника не було притягнуто до відповідальності за корупційне правопорушення',
  },
  {
    id: 'CRITERION.EXCLUSION.CONVICTIONS.CHILD_LABOUR-HUMAN_TRAFFICKING',
    source: 'tenderer',
    article: '17.1.12',
    title: 'Дитяча праця або будь-які форми торгівлі людьми',
    requirement: 'Учасника не було притягнуто до відповідальності за використання дитячої праці чи торгівлю людьми',
  },
  {
    id: 'CRITERION.EXCLUSION.BUSINESS.BANKRUPTCY',
    source: 'tenderer',
    article: '17.1.8',
    title: 'Банкрутство',
    requirement: 'Учасника не визнано банкрутом і щодо нього не відкрито ліквідаційну процедуру',
  },
  {
    id: 'CRITERION.EXCLUSION.MISCONDUCT.MARKET_DISTORTION',
    source: 'procuringEntity',
    article: '17.1.4',
    title: 'Професійні правопорушення',
    requirement: 'Замовник підтверджує, що учасника не було притягнуто до відповідальності за антиконкурентні узгоджені дії',
  },
  {
    id: 'CRITERION.EXCLUSION.CONFLICT_OF_INTEREST.MISINTERPRETATION',
    source: 'procuringEntity',
    article: '17.1.2',
    title: 'Спотворення інформації',
    requirement: 'Замовник підтверджує, що учасник не впливав на прийняття рішення замовника',
  },
  {
    id: 'CRITERION.EXCLUSION.NATIONAL.OTHER',
    source: 'tenderer',
    article: '17.1.13',
    title: 'Заборгованість зі сплати податків і зборів',
    requirement: 'Учасник не має заборгованості зі сплати податків і зборів',
  },
  {
    id: 'CRITERION.OTHER.BID.LANGUAGE',
    source: 'tenderer',
    article: '22.2.13',
    title: 'Мова (мови), якою (якими) повинні готуватися тендерні пропозиції',
    requirement: 'Мова тендерної пропозиції українська',
  },
  {
    id: 'CRITERION.OTHER.CONTRACT.GUARANTEE',
    source: 'winner',
    article: '27.2',
    title: 'Забезпечення виконання договору про закупівлю',
    requirement: 'Переможець надасть забезпечення виконання договору про закупівлю',
  },
];

/** A criterion of the template, in the spec's structure; facts the procuring entity confirms carry no expectedValue. */
function fromTemplate(template: CriterionTemplate): CriterionRequest {
  return {
    title: template.title,
    source: template.source,
    relatesTo: 'tenderer',
    classification: { scheme: 'espd211', id: template.id },
    legislation: [{ version: '2020-04-19', identifier: LAW_922, type: 'NATIONAL_LEGISLATION', article: template.article }],
    requirementGroups: [
      {
        description: template.source === 'procuringEntity' ? 'Замовник підтверджує, що' : 'Учасник підтверджує, що',
        requirements: [
          { title: template.requirement, dataType: 'boolean', ...(template.source === 'procuringEntity' ? {} : { expectedValue: 'true' }) },
        ],
      },
    ],
  };
}

/** The criteria of the spec's list the tender does not have yet, ready to append (docs/tenders.md §Criteria). */
export function missingCriteria(existing: Criterion[], now: Date): Criterion[] {
  const present = new Set(existing.map((c) => c.classification.id));
  return COMPETITIVE_ORDERING_CRITERIA.filter((t) => !present.has(t.id)).map((t) => withServerFields(fromTemplate(t), now));
}

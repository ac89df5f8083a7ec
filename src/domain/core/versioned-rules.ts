import { apiError } from '../../http/errors';
import { appliesFrom, type ConstantName } from './constants';

/**
 * Rules that apply to objects created on or after a date of `/constants` (spec: Versioning), in one table.
 * Each is keyed on the object's creation date (`dateCreated`, or "now" while it is being created).
 */
interface VersionedRule {
  from: ConstantName;
  check: (object: Versioned) => void;
}

interface Amount {
  amount?: number;
}
interface VersionedItem {
  classification?: { id?: string };
  additionalClassifications?: readonly { scheme?: string }[];
}

/** What the rules read of a tender or contract (as joi left it); every member may be missing. */
export interface Versioned {
  items?: readonly VersionedItem[];
  milestones?: readonly unknown[];
  value?: Amount;
  minimalStep?: Amount;
  lots?: readonly { value?: Amount; minimalStep?: Amount }[];
  /** Business organizations, of which only `scale` is read here. */
  suppliers?: readonly ({ scale?: string } & Record<string, unknown>)[];
}

const INN = 'INN';
const innCount = (item: VersionedItem) => (item.additionalClassifications ?? []).filter((c) => c.scheme === INN).length;

/** Spec: date-dependent validation messages (CPV_336_INN_FROM). */
const itemsInnRules: VersionedRule = {
  from: 'CPV_336_INN_FROM',
  check: (o) => {
    for (const item of o.items ?? []) {
      const id = item.classification?.id ?? '';
      if (id === '33600000-6' && innCount(item) !== 1) {
        throw apiError(
          422,
          ['Item with classification.id=33600000-6 have to contain exactly one additionalClassifications with scheme=INN'],
          { name: 'items' },
        );
      }
      if (id.startsWith('336') && id !== '33600000-6' && innCount(item) > 1) {
        throw apiError(
          422,
          [
            'Item with classification.id that starts with 336 and contains additionalClassification objects have to contain no more than one additionalClassifications with scheme=INN',
          ],
          { name: 'items' },
        );
      }
    }
  },
};

const required = (from: ConstantName, field: string): VersionedRule => ({
  from,
  check: (o) => {
    if ((o as Record<string, unknown>)[field] === undefined) throw apiError(422, ['This field is required.'], { name: field });
  },
});

/** Milestones required (MILESTONES_VALIDATION_FROM): missing and empty alike. */
const milestonesRequired: VersionedRule = {
  from: 'MILESTONES_VALIDATION_FROM',
  check: (o) => {
    if (!o.milestones || o.milestones.length === 0) throw apiError(422, ['This field is required.'], { name: 'milestones' });
  },
};

/** `floor(value·0.5%) ≤ minimalStep ≤ ceil(value·3%)`, 2 digits (docs/tenders.md §Minimal step). */
const minimalStepLimits: VersionedRule = {
  from: 'MINIMAL_STEP_VALIDATION_FROM',
  check: (o) => {
    const pairs: [Amount | undefined, Amount | undefined][] = [
      [o.value, o.minimalStep],
      ...(o.lots ?? []).map((l): [Amount | undefined, Amount | undefined] => [l.value, l.minimalStep]),
    ];
    for (const [value, step] of pairs) {
      if (value?.amount === undefined || step?.amount === undefined) continue;
      const lower = Math.floor(value.amount * 0.005 * 100) / 100;
      const upper = Math.ceil(value.amount * 0.03 * 100) / 100;
      if (step.amount < lower || step.amount > upper) {
        throw apiError(422, 'Minimal step value must be between 0.5% and 3% of value (with 2 digits precision).');
      }
    }
  },
};

/** Business organizations (tenderers, suppliers) state their `scale` (ORGANIZATION_SCALE_FROM). */
const suppliersScaleRequired: VersionedRule = {
  from: 'ORGANIZATION_SCALE_FROM',
  check: (o) => {
    const suppliers = o.suppliers ?? [];
    if (suppliers.some((s) => s.scale === undefined)) {
      throw apiError(
        422,
        suppliers.map((s) => (s.scale === undefined ? { scale: ['This field is required.'] } : {})),
        { name: 'suppliers' },
      );
    }
  },
};

export const TENDER_VERSIONED_RULES: VersionedRule[] = [
  required('MPC_REQUIRED_FROM', 'mainProcurementCategory'),
  milestonesRequired,
  itemsInnRules,
  minimalStepLimits,
];

export const CONTRACT_VERSIONED_RULES: VersionedRule[] = [itemsInnRules, suppliersScaleRequired];

/** Runs the rules that apply to an object created at `createdAt`. */
export function checkVersioned(rules: VersionedRule[], object: Versioned, createdAt: Date | string): void {
  for (const rule of rules) if (appliesFrom(rule.from, createdAt)) rule.check(object);
}

import type { TenderProcedure } from '../procedure';
import { aboveThreshold } from './above-threshold';
import { belowThreshold } from './below-threshold';
import { competitiveOrdering } from './competitive-ordering';
import { negotiation, negotiationQuick } from './negotiation';
import { reporting } from './reporting';

export const TENDER_PROCEDURES: Record<string, TenderProcedure> = {
  belowThreshold,
  competitiveOrdering,
  reporting,
  aboveThreshold,
  negotiation,
  'negotiation.quick': negotiationQuick,
};

/**
 * The one lookup by type (docs/architecture.md §Procedures as data). A POST without `procurementMethodType` is
 * belowThreshold (docs/tenders.md §Procedure types).
 */
export function procedureOf(type: unknown): TenderProcedure | undefined {
  const name = type === undefined ? 'belowThreshold' : typeof type === 'string' ? type : '';
  return Object.hasOwn(TENDER_PROCEDURES, name) ? TENDER_PROCEDURES[name] : undefined;
}

import type { TenderProcedure } from '../procedure';
import { belowThreshold } from './below-threshold';
import { competitiveOrdering } from './competitive-ordering';

const PROCEDURES: Record<string, TenderProcedure> = { belowThreshold, competitiveOrdering };

/** The one lookup by type (style.md §2). A POST without `procurementMethodType` is belowThreshold (notes/tenders.md §1). */
export function procedureOf(type: unknown): TenderProcedure | undefined {
  const name = type === undefined ? 'belowThreshold' : String(type);
  return Object.hasOwn(PROCEDURES, name) ? PROCEDURES[name] : undefined;
}

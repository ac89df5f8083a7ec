import type { StoreSession } from '../../store/port';
import { tenderReleases } from '../../ocds/tender-release';
import type { ViewPart } from '../../ocds/parts';
import type { OcdsKind } from '../core/ocds-reads';
import type { Plan, PlanDoc } from '../plan/plan.types';
import { visibleData } from '../core/restricted-view';
import { TENDER_MASK } from './tender.mask';
import type { Tender, TenderDoc } from './tender.types';

/** The plan a tender's view names: masking hides texts, never the shape (docs/masking.md §Tender). */
const planIdOf = (view: ViewPart): string | undefined => (view as Partial<Tender>).plans?.[0]?.id;

/** The plans the tenders came from, by id (plans hide nothing). */
async function plansOf(ids: string[], session: StoreSession): Promise<Map<string, Plan | undefined>> {
  const stored = ids.length ? await session.getMany('plans', ids) : [];
  return new Map(stored.map((s) => [s.id, (s.doc as PlanDoc).data]));
}

/** Tenders in OCDS: one release per lot, with the plan the tender came from (docs/ocds.md §Tenders). */
export const tenderOcds: OcdsKind = {
  kind: 'tenders',
  view: (doc, viewer) => visibleData(doc as TenderDoc, viewer, TENDER_MASK),
  // The plans the views listed name are read at once (a whole feed page's); any other, when a view names it.
  releasesOf: async (views, session) => {
    const plans = await plansOf([...new Set(views.map(planIdOf).filter((id): id is string => typeof id === 'string'))], session);
    return async (view) => {
      const planId = planIdOf(view);
      if (planId === undefined) return tenderReleases(view);
      if (!plans.has(planId)) plans.set(planId, (await plansOf([planId], session)).get(planId));
      return tenderReleases(view, plans.get(planId));
    };
  },
  publisher: (view) => (view as Partial<Tender>).procuringEntity?.name,
};

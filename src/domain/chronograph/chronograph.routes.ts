import { bodyData } from '../../http/body';
import { route, type MountableRoute } from '../../http/route';
import { loadObject, type ObjectDoc, type StoredObject } from '../core/objects';
import { applyChecks } from '../kind-checks';

/** `ChronographSerializer`: the tender fields the chronograph reads back (docs/platform.md §Chronograph). */
const TENDER_FIELDS = [
  'id',
  'status',
  'enquiryPeriod',
  'tenderPeriod',
  'auctionPeriod',
  'awardPeriod',
  'awards',
  'lots',
  'submissionMethodDetails',
  'mode',
  'date',
  'numberOfBids',
  'complaints',
  'qualifications',
  'contracts',
  'next_check',
];

const KINDS = ['tenders', 'frameworks', 'agreements'] as const;

/** An object of any of the kinds, as the chronograph answers it: its data's members, whatever the kind. */
type CheckedDoc = ObjectDoc<Record<string, unknown>, object, object>;

function chronographView(kind: (typeof KINDS)[number], doc: CheckedDoc): Record<string, unknown> {
  if (kind !== 'tenders') return doc.data;
  return Object.fromEntries(TENDER_FIELDS.filter((f) => doc.data[f] !== undefined).map((f) => [f, doc.data[f]]));
}

/**
 * `PATCH /api/2.5/{tenders|frameworks|agreements}/{id}/chronograph` with `{"data": {"id": …}}`, for keys of the
 * `chronograph` group only: runs the due checks now and answers `{data, config}`. The reference has the suffix
 * for tenders; frameworks and agreements take the chronograph on their plain PATCH, and get the suffix here too
 * so one client serves all three. The body's `data` must be an object; its fields are not applied. As in the
 * reference, the object is looked up before the permission is checked: unknown id → 404.
 */
export function chronographRoutes(): MountableRoute[] {
  return KINDS.map((kind) =>
    route({
      method: 'patch',
      path: `/api/2.5/${kind}/:id/chronograph`,
      summary: `Runs the due checks of one of ${kind} now`,
      tag: 'chronograph',
      load: (ctx): Promise<StoredObject> => loadObject(ctx.state.session, kind, ctx.params.id),
      access: { system: ['chronograph'] },
      body: 'any-data',
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        bodyData(ctx);
        // Every check due now runs, whatever next_check says (docs/platform.md §Chronograph); nothing due is a no-op 200.
        const after = await applyChecks(ctx.state.session, stored, ctx.state.now);
        const doc = after.stored.doc as CheckedDoc;
        ctx.body = { data: chronographView(kind, doc), config: doc.config ?? {} };
      },
    }),
  );
}

import type { Ctx } from '../../../http/context';
import { apiError } from '../../../http/errors';
import { route, type MountableRoute } from '../../../http/route';
import { itemById } from '../../core/items';
import { loadTenderOf, tenderListReads, visibleTender } from '../tender.routes';
import type { TenderContract } from '../tender.types';

const PATH = '/api/2.5/tenders/:id';

/** The tender's copy of the contract the path names, as this reader sees it: 404 for an unknown one. */
const visibleContract = async (ctx: Ctx): Promise<TenderContract> =>
  itemById(await visibleTender(ctx), 'contracts', ctx.params.contractId, 'contract_id');

/**
 * `GET /tenders/{id}/contracts[/{contract_id}]` (docs/tenders.md §Contracts of a tender): the tender's copies of
 * its contracts, hidden as the tender is; they change at `/contracts/{id}`. The older calls that changed them in
 * the tender answer the refusal the reference gives every tender made after `NEW_CONTRACTING_FROM`
 * (docs/relocation.md §Older contracting calls).
 */
export function tenderContractRoutes(): MountableRoute[] {
  return [
    ...tenderListReads('contracts', 'contractId', 'contract_id', {
      list: "The tender's copies of its contracts",
      one: "The tender's copy of one contract",
    }),
    route({
      method: 'patch',
      path: `${PATH}/contracts/:contractId`,
      summary: 'Refused: 403 update is forbidden for contract',
      load: visibleContract,
      access: 'broker',
      body: 'any-data',
      result: 'retired',
      handle: () => {
        throw apiError(403, 'update is forbidden for contract');
      },
    }),
    route({
      method: 'post',
      path: `${PATH}/contracts/:contractId/documents`,
      summary: 'Refused: 403 add is forbidden for contract document',
      load: visibleContract,
      // A broker or a bot gets the refusal that names the call; anyone else the plain 403.
      access: { system: ['brokers', 'bots'] },
      body: 'file',
      result: 'retired',
      handle: () => {
        throw apiError(403, 'add is forbidden for contract document');
      },
    }),
    // The contracting system's read of the tender's owner and token hash (`TenderCredentialsSerializer`).
    route({
      method: 'get',
      path: `${PATH}/extract_credentials`,
      summary: "The tender's owner and owner token hash (the contracting system)",
      load: loadTenderOf,
      access: { system: ['contracting', 'competitive_dialogue'] },
      result: 'object',
      handle: (ctx, { doc }) => {
        ctx.body = { data: { id: doc.data.id, owner: doc.data.owner, tender_token: doc.secrets?.tokenHash } };
      },
    }),
  ];
}

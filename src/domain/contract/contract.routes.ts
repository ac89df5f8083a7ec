import type { RouteDeps } from '../../app-deps';
import { isBroker } from '../../http/auth';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { feedRoute, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import { loadObject, type StoredObject } from '../core/objects';
import { objectReadRoutes } from '../core/object-reads';
import type { OcdsKind } from '../core/ocds-reads';
import { ownerOf, presentedToken } from '../core/owner';
import { contractRelease } from '../../ocds/contract-release';
import { visibleData } from '../core/restricted-view';
import type { DocumentHost } from '../core/document-host';
import { createContract, patchContract } from './contract.lifecycle';
import { addChange, findChange, patchChange, type LoadedChange } from './contract-changes';
import { CONTRACT_MASK } from './contract.mask';
import { putSignerInfo, sideOwner } from './contract-signer-info';
import { generateCredentials, holdsTenderCredentials } from './contract-credentials';
import {
  createContract as createContractSchema,
  patchChangeSchema,
  patchContract as patchContractSchema,
  postChangeSchema,
} from './contract.schema';
import { completeSignerInfoSchema } from '../core/parts.schema';
import { tenderContractLink } from '../tender';
import type { Contract, ContractDoc } from './contract.types';

/** Contracts in OCDS: each in its tender's contracting process (docs/ocds.md §Contracts). */
const contractOcds: OcdsKind = {
  kind: 'contracts',
  view: (doc, viewer) => visibleData(doc as ContractDoc, viewer, CONTRACT_MASK),
  releasesOf: async () => async (view) => [contractRelease(view)],
  publisher: (view) => (view as Contract).buyer?.name,
};

const contractFeed: FeedSource = {
  kind: 'contracts',
  // Spec-era `listing_allowed_fields` of contracts (docs/contracts.md §Contract feed).
  allowedFields: ['dateCreated', 'contractID', 'dateModified', 'status'],
  entry: (doc, viewer) => ({ data: visibleData(doc as ContractDoc, viewer, CONTRACT_MASK) }),
  releasesOf: contractOcds.releasesOf,
};

/** Contract documents: the owner adds them until the contract is final; readers see them as the contract. */
export const contractDocuments: DocumentHost = {
  kind: 'contracts',
  name: 'contract',
  view: (doc: ContractDoc, viewer) => visibleData(doc, viewer, CONTRACT_MASK),
  authority: async (_session, stored) => stored.doc as ContractDoc,
  acceptsIn: () => ['pending', 'active'],
  documentOf: ['tender', 'item', 'lot', 'contract', 'change'],
  // `documentOf` `contract` unless changed, public only, no `language`; a lot is the tender's, not checked here
  // (docs/platform.md §Document fields).
  fields: { documentOf: 'contract', confidentiality: 'public', related: { item: 'items', change: 'changes' } },
};

const loadContract = (ctx: Ctx): Promise<StoredObject<ContractDoc>> =>
  loadObject<ContractDoc>(ctx.state.session, 'contracts', ctx.params.id);
const visibleContract = (ctx: Ctx, stored: StoredObject<ContractDoc>) => visibleData(stored.doc, ctx.state.viewer, CONTRACT_MASK);

/** The contract and the change the path names, as the reference resolves them before any check: 404 first. */
async function loadChange(ctx: Ctx): Promise<LoadedChange> {
  const stored = await loadContract(ctx);
  return { stored, change: findChange(stored.doc.data, ctx.params.changeId) };
}

const theContractOwner = ownerOf('the contract', (stored: StoredObject<ContractDoc>) => stored.doc);

/** Who signs for a side (docs/contracts.md §Contracts from awards): the side's owner puts it. */
function signerInfoRoute(side: 'buyer' | 'suppliers', summary: string, of: string): MountableRoute {
  return route({
    method: 'put',
    path: `/api/2.5/contracts/:id/${side}/signer_info`,
    summary,
    load: loadContract,
    access: ownerOf(of, (stored: StoredObject<ContractDoc>) => sideOwner(stored.doc, side)),
    body: [{ data: completeSignerInfoSchema }],
    result: 'object',
    writes: true,
    handle: async (ctx, stored) => {
      ctx.body = { data: await putSignerInfo(ctx.state.session, stored, side, bodyData(ctx), ctx.state.now) };
    },
  });
}

/** Endpoint 20 (`GET /contracts/{id}`), the contract feed, creation by the contracting system, owner PATCH, changes. */
export function contractRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return [
    route({
      method: 'post',
      path: '/api/2.5/contracts',
      summary: 'Creates a contract (the contracting system)',
      access: { system: ['contracting'] },
      body: [{ data: createContractSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx) => {
        const { doc, access } = await createContract(ctx.state.session, bodyData(ctx), ctx.state.now);
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/contracts/${doc.data.id}`), { data: doc.data, config: doc.config, access });
      },
    }),
    ...objectReadRoutes(
      'contracts',
      (doc, viewer) => ({ data: visibleData(doc as ContractDoc, viewer, CONTRACT_MASK), config: doc.config }),
      {
        ocds: contractOcds,
        publicBaseUrl: base,
        recordLimit: deps.config.ocdsRecordLimit,
      },
    ),
    route({
      method: 'patch',
      path: '/api/2.5/contracts/:id',
      summary: 'Changes a contract',
      load: loadContract,
      access: theContractOwner,
      body: [{ data: patchContractSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        const doc = await patchContract(ctx.state.session, stored, bodyData(ctx), ctx.state.now, tenderContractLink);
        ctx.body = { data: doc.data, config: doc.config };
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/contracts/:id/credentials',
      summary: "A new owner token and transfer token of a contract (the tender's owner)",
      load: loadContract,
      access: {
        owner: "the contract's tender",
        owns: (ctx, stored) =>
          isBroker(ctx.state.viewer) && holdsTenderCredentials(stored.doc, ctx.state.viewer.account!, presentedToken(ctx)),
      },
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        const { doc, access } = await generateCredentials(ctx.state.session, stored, ctx.state.now);
        ctx.body = { data: doc.data, config: doc.config, access };
      },
    }),
    signerInfoRoute('buyer', "Names the buyer's signer (the contract owner)", 'the contract'),
    signerInfoRoute('suppliers', "Names the supplier's signer (the winning bid's owner)", 'the winning bid'),
    route({
      method: 'post',
      path: '/api/2.5/contracts/:id/changes',
      summary: 'Proposes a change of an active contract',
      load: loadContract,
      access: theContractOwner,
      body: [{ data: postChangeSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const change = await addChange(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/contracts/${stored.id}/changes/${change.id}`), { data: change });
      },
    }),
    route({
      method: 'get',
      path: '/api/2.5/contracts/:id/changes',
      summary: 'Changes of a contract',
      load: loadContract,
      access: 'public',
      result: 'list',
      handle: (ctx, stored) => {
        ctx.body = { data: visibleContract(ctx, stored).changes ?? [] };
      },
    }),
    route({
      method: 'get',
      path: '/api/2.5/contracts/:id/changes/:changeId',
      summary: 'One change of a contract',
      load: loadContract,
      access: 'public',
      result: 'object',
      handle: (ctx, stored) => {
        ctx.body = { data: findChange(visibleContract(ctx, stored), ctx.params.changeId) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/contracts/:id/changes/:changeId',
      summary: 'Edits or applies a pending contract change',
      load: loadChange,
      access: ownerOf('the contract', ({ stored }: LoadedChange) => stored.doc),
      body: [{ data: patchChangeSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await patchChange(ctx.state.session, loaded, bodyData(ctx), ctx.state.now) };
      },
    }),
    feedRoute(contractFeed, base),
  ];
}

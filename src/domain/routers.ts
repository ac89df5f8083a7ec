import type { RouteDeps } from '../app-deps';
import type { MountableRoute } from '../http/route';
import { chronographRoutes } from './chronograph/chronograph.routes';
import { constantsRoutes } from './constants.routes';
import { agreementRoutes } from './agreement/agreement.routes';
import { frameworkDerivativeFeeds } from './framework/derivative-feeds.routes';
import { frameworkDocuments, frameworkRoutes } from './framework/framework.routes';
import { qualificationDocuments, qualificationRoutes } from './qualification/qualification.routes';
import { questionRoutes } from './question/question.routes';
import { submissionDocuments, submissionRoutes } from './submission/submission.routes';
import { contractRoutes, contractDocuments } from './contract/contract.routes';
import { documentTable } from './documents/document.routes';
import { planDocuments, planRoutes } from './plan/plan.routes';
import { tenderDocuments, tenderRoutes } from './tender/tender.routes';
import { lotRoutes } from './tender/lots/lot.routes';
import { tenderQuestionRoutes } from './tender/questions/tender-question.routes';
import { criteriaRoutes } from './tender/criteria/criteria.routes';
import { cancellationRoutes } from './tender/cancellations/cancellation.routes';
import { complaintRoutes } from './tender/complaints/complaint.routes';
import { bidRoutes } from './tender/bids/bid.routes';
import { auctionRoutes } from './tender/auction/auction.routes';
import { awardRoutes } from './tender/awards/award.routes';
import { tenderContractRoutes } from './tender/contracts/tender-contract.routes';
import { transferRoutes } from './transfer/transfer.routes';

/** Every domain module's routes, in one table (docs/architecture.md §Routes): the only place a new object kind is wired in. */
export function domainRoutes(deps: RouteDeps): MountableRoute[] {
  return [
    ...constantsRoutes(),
    ...chronographRoutes(),
    ...frameworkRoutes(deps),
    ...frameworkDerivativeFeeds(deps),
    ...questionRoutes(deps),
    ...submissionRoutes(deps),
    ...qualificationRoutes(deps),
    ...agreementRoutes(deps),
    ...documentTable(deps, frameworkDocuments),
    ...documentTable(deps, submissionDocuments),
    ...documentTable(deps, qualificationDocuments),
    ...tenderRoutes(deps),
    ...lotRoutes(deps),
    ...tenderQuestionRoutes(deps),
    ...criteriaRoutes(),
    ...documentTable(deps, tenderDocuments),
    ...cancellationRoutes(deps),
    ...complaintRoutes(deps),
    ...bidRoutes(deps),
    ...auctionRoutes(),
    ...awardRoutes(deps),
    ...tenderContractRoutes(),
    ...contractRoutes(deps),
    ...documentTable(deps, contractDocuments),
    ...planRoutes(deps),
    ...documentTable(deps, planDocuments),
    ...transferRoutes(deps),
  ];
}

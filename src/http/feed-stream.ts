import type { Ctx } from './context';
import { apiError } from './errors';
import { parseFeedOffset } from './feed-offset';
import { storeOffset } from './feed-page';
import type { StreamRender } from './live-feeds';
import { wantsOcds } from '../ocds/ocds-option';
import type { FeedQuery } from '../store/port';

/** A feed request that asks for the live feed: `Accept: text/event-stream` preferred to JSON (docs/platform.md §Live feed). */
export const wantsEventStream = (ctx: Ctx): boolean => ctx.accepts('application/json', 'text/event-stream') === 'text/event-stream';

/**
 * Answers a feed request with the live feed (docs/platform.md §Live feed): the feed's entries as this reader's page
 * would list them, after `offset` or the `Last-Event-ID` an EventSource sends when it reconnects, and then each
 * change as the node's reader of that feed lists it. The handler returns at once, so `REQUEST_TIMEOUT_MS` never
 * applies; the stream lives until its client leaves, falls behind or the node stops.
 */
export function streamFeed(ctx: Ctx, query: FeedQuery, render: StreamRender): void {
  if (query.descending) {
    throw apiError(400, 'The live feed lists changes in commit order only: leave out descending.', {
      location: 'querystring',
      name: 'descending',
    });
  }
  if (wantsOcds(ctx.query)) {
    throw apiError(400, 'The live feed lists the feed’s own entries: read OCDS releases from the paged feed.', {
      location: 'querystring',
      name: 'opt_schema',
    });
  }
  let after = query.offset;
  const lastEventId = ctx.get('last-event-id');
  if (lastEventId) {
    const parsed = parseFeedOffset(lastEventId, false);
    if (parsed === null) throw apiError(404, `Invalid offset provided: ${lastEventId}`, { location: 'header', name: 'Last-Event-ID' });
    after = storeOffset(parsed, false);
  }
  const { account } = ctx.state.viewer;
  const { perKey, perAddress } = ctx.state.liveFeeds.config;
  const out = ctx.state.liveFeeds.open(
    {
      kind: query.kind,
      mode: query.mode,
      frameworkID: query.frameworkID,
      after,
      holder: account ? `key:${account.name}` : `ip:${ctx.ip}`,
      cap: account ? perKey : perAddress,
      render,
    },
    ctx.res,
  );
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no'); // nginx would otherwise hold events back to fill its buffer
  ctx.body = out.body;
}

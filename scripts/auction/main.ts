import { parseCli } from '../cli';
import { playAuction, type AuctionModule, type AuctionRequest } from './play-auction';

/**
 * `npm run auction`: the auction module as a service (docs/tenders.md §Auction). It follows the tender feed from its
 * start (`opt_fields=status`, next_page after next_page), and plays the auction of every tender it sees in
 * `active.auction`; at the end of the feed it waits POLL_MS and asks again from where it stopped.
 */
parseCli(
  `usage: npm run auction

The project's auction module: plays every tender in active.auction through the registry's auction API. Configured
by the environment (as in a container):
  API_URL        the registry (default http://127.0.0.1:8080)
  AUCTION_KEY    an API key of the auction group (required)
  AUCTION_BASE   where auction pages are said to live (default https://auction.example.org)
  POLL_MS        wait at the end of the feed, in ms (default 2000)
  -h, --help     this text`,
  {},
);
const apiUrl = (process.env.API_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const key = process.env.AUCTION_KEY;
const pollMs = Number(process.env.POLL_MS ?? 2000);

/** Requests with the auction key and the registry's SESSION cookie kept, repeating once on 412 (a node gone). */
function httpRequest(apiKey: string): AuctionRequest {
  let cookie: string | undefined;
  const send: AuctionRequest = async (method, path, body) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie ? { cookie } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const set = res.headers.get('set-cookie')?.match(/SESSION=[^;]+/);
      if (set) cookie = set[0];
      const text = await res.text();
      if (res.status === 412 && attempt === 0) continue;
      return { status: res.status, body: text ? JSON.parse(text) : {} };
    }
  };
  return send;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  if (!key) throw new Error('AUCTION_KEY is required (an API key of the auction group)');
  const module: AuctionModule = { request: httpRequest(key), auctionBase: process.env.AUCTION_BASE ?? 'https://auction.example.org' };
  let page = '/api/2.5/tenders?opt_fields=status';
  let stopping = false;
  process.on('SIGTERM', () => (stopping = true));
  process.on('SIGINT', () => (stopping = true));
  while (!stopping) {
    try {
      const res = await module.request('GET', page);
      if (res.status !== 200) throw new Error(`feed ${res.status}`);
      for (const entry of res.body.data) {
        if (entry.status !== 'active.auction') continue;
        if (await playAuction(module, entry.id)) console.log(`auction played: tender ${entry.id}`);
      }
      const next = new URL(res.body.next_page.uri);
      page = `${next.pathname}${next.search}`;
      if (res.body.data.length === 0) await sleep(pollMs);
    } catch (err) {
      console.error(err instanceof Error ? err.message : err);
      await sleep(pollMs);
    }
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

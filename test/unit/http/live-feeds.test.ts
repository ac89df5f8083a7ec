import t from 'tap';
import type { ServerResponse } from 'node:http';
import pino from 'pino';
import { loadConfig } from '../../../src/config';
import { LiveFeeds, type StreamRequest } from '../../../src/http/live-feeds';
import type { Store } from '../../../src/store/port';

const request: StreamRequest = {
  kind: 'tenders',
  mode: 'live',
  after: undefined,
  holder: 'ip:127.0.0.1',
  cap: 0,
  render: { key: () => '', json: () => Buffer.from('{}') },
};

t.test('a stopping node’s live feeds refuse new streams: 503 (docs/platform.md §Live feed)', async (t) => {
  const feeds = new LiveFeeds({} as Store, loadConfig({}).feedStreams, pino({ level: 'silent' }));
  await feeds.close();
  t.throws(() => feeds.open(request, {} as ServerResponse), { status: 503, errors: [{ location: 'url', name: 'live_feed' }] });
});

import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startNode } from '../../src/node';
import { ManualClock } from '../../src/time/clock';
import { docserviceEnv } from '../fixtures/docservice';
import { DEFAULT_NOW } from '../fixtures/server';

/** docs/platform.md §Built-in document service: DOCSERVICE_PORT is a listener of its own, on nodes that serve the API. */
async function nodeWith(t: Test, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'registry-docservice-'));
  const config = loadConfig({
    PORT: '0',
    STORE_URL: `sqlite:${join(dir, 'registry.db')}`,
    AUTH_FILE: join(__dirname, '../../auth.ini'),
    LOG_LEVEL: 'silent',
    ...docserviceEnv,
    ...env,
  });
  const node = await startNode(config, new ManualClock(DEFAULT_NOW), pino({ level: 'silent' }));
  t.teardown(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return node;
}

t.test('the service answers on DOCSERVICE_PORT only, the API on PORT only', async (t) => {
  const node = await nodeWith(t, { DOCSERVICE_PORT: '0' });
  t.not(new URL(node.docserviceUrl!).port, new URL(node.url!).port, 'a listener of its own');
  t.equal((await fetch(`${node.docserviceUrl}/`)).status, 200);
  t.equal((await fetch(`${node.docserviceUrl}/api/2.5/tenders`)).status, 404, 'no API on the service port');
  t.equal((await fetch(`${node.url}/get/x`)).status, 404, 'no service on the API port');
  t.equal((await fetch(`${node.docserviceUrl}/upload`, { method: 'POST' })).status, 403, 'uploads need a broker');
});

t.test('no listener without DOCSERVICE_PORT, nor on a worker', async (t) => {
  t.equal((await nodeWith(t, {})).docserviceUrl, null);
  t.equal((await nodeWith(t, { DOCSERVICE_PORT: '0', ROLE: 'worker' })).docserviceUrl, null);
});

import t from 'tap';
import pino from 'pino';
import { Writable } from 'node:stream';
import { redisMembership } from '../../src/membership/redis-membership';
import { ManualClock } from '../../src/time/clock';
import { startRedis } from '../jobs/fixtures/redis';

// Heartbeats are never renewed in these tests (hour-long interval): the injected clock alone ends them.
const TTL = 5000;

function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: pino({ level: 'warn' }, stream) };
}

t.test('membership', async (t) => {
  const redis = await startRedis();
  t.teardown(() => redis.stop());
  const prefix = () => `t:${Math.random()}:`;

  t.test('a node is alive until its heartbeat deadline passes on the injected clock', async (t) => {
    const clock = new ManualClock(new Date('2026-10-05T12:00:00Z'));
    const keyPrefix = prefix();
    const opts = { redisUrl: redis.url, intervalMs: 3_600_000, ttlMs: TTL, clock, logger: pino({ level: 'silent' }), keyPrefix };
    const a = redisMembership({ ...opts, selfId: 'a' });
    const b = redisMembership({ ...opts, selfId: 'b', cacheMs: 0 });
    await a.start();
    await b.start();
    t.teardown(async () => {
      await a.stop();
      await b.stop();
    });
    t.equal(await b.isAlive('a'), true, 'fresh heartbeat');
    clock.advance(TTL - 1);
    t.equal(await b.isAlive('a'), true, 'one millisecond before the deadline');
    clock.advance(2);
    t.equal(await b.isAlive('a'), false, 'past the deadline');
    t.equal(await a.isAlive('a'), true, 'a node always counts itself alive');
  });

  t.test('a stopped node is gone at once, before its TTL', async (t) => {
    const clock = new ManualClock(new Date('2026-10-05T12:00:00Z'));
    const opts = { redisUrl: redis.url, intervalMs: 3_600_000, ttlMs: TTL, clock, logger: pino({ level: 'silent' }), keyPrefix: prefix() };
    const a = redisMembership({ ...opts, selfId: 'a' });
    const b = redisMembership({ ...opts, selfId: 'b', cacheMs: 0 });
    await a.start();
    await b.start();
    t.teardown(() => b.stop());
    t.equal(await b.isAlive('a'), true);
    await a.stop();
    t.equal(await b.isAlive('a'), false);
  });

  t.test('a node never announced is not alive', async (t) => {
    const clock = new ManualClock(new Date('2026-10-05T12:00:00Z'));
    const b = redisMembership({
      redisUrl: redis.url,
      selfId: 'b',
      intervalMs: 3_600_000,
      ttlMs: TTL,
      clock,
      logger: pino({ level: 'silent' }),
      keyPrefix: prefix(),
    });
    await b.start();
    t.teardown(() => b.stop());
    t.equal(await b.isAlive('nobody'), false);
  });

  t.test('without Redis a node trusts itself and the nodes it last saw alive, and logs the outage', async (t) => {
    const own = await startRedis();
    const clock = new ManualClock(new Date('2026-10-05T12:00:00Z'));
    const logs = captureLogs();
    const opts = { redisUrl: own.url, intervalMs: 3_600_000, ttlMs: TTL, clock, keyPrefix: prefix() };
    const a = redisMembership({ ...opts, selfId: 'a', logger: pino({ level: 'silent' }) });
    await a.start();
    const b = redisMembership({ ...opts, selfId: 'b', logger: logs.logger });
    await b.start();
    t.teardown(async () => {
      await a.stop();
      await b.stop();
    });
    await own.stop();
    clock.advance(1000); // past the answer cache, so Redis is asked again
    t.equal(await b.isAlive('a'), true, 'seen alive at the last heartbeat');
    t.equal(await b.isAlive('b'), true, 'itself');
    t.equal(await b.isAlive('stranger'), false, 'never seen');
    t.match(logs.lines.join(''), /Redis unreachable/);
  });
});

import type { Redis } from 'ioredis';
import type { CheckQueue } from './check-queue';
import { observedCheck, type CheckContext } from './observed-check';

/**
 * Consumes planned checks, `concurrency` at a time. A throw (conflict, store error) hands the job back to Bull,
 * which retries it with exponential backoff; a worker that dies mid-job loses its lock and the job is retried
 * by another worker. Resolves once the blocking connection that waits for jobs is up: Bull's close before that
 * kills the connection's start-up commands, which then reject with nobody awaiting them (OptimalBits/bull#2222).
 */
export async function startWorker(queue: CheckQueue, ctx: CheckContext, concurrency: number): Promise<void> {
  // Bull names the worker's connection without catching the answer; a peer that is not Redis (a wrong REDIS_URL)
  // would reject it unawaited and crash the node, so consuming starts only once the peer has answered PONG.
  await answersPong(queue);
  queue
    .process(concurrency, async (job) => {
      await observedCheck(ctx, 'queue', job.data.kind, job.data.id);
    })
    // Rejects when Redis is unreachable at start or the queue closes; readiness reports the outage.
    .catch((err) => ctx.logger.warn({ err }, 'next_check worker stopped consuming'));
  queue.on('failed', (job, err) => {
    if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
      ctx.logger.error({ err, kind: job.data.kind, id: job.data.id }, 'next_check job gave up; the sweeper will retry');
    }
  });
  // Bull's typings omit `bclient`, the blocking connection it creates lazily for `process`.
  return queue.isReady().then(() => connected((queue as CheckQueue & { bclient: Redis }).bclient));
}

async function answersPong(queue: CheckQueue): Promise<void> {
  for (;;) {
    if (isClosing(queue)) throw new Error('next_check queue: closed before Redis answered');
    const answer = await queue.client.ping().catch(() => null);
    if (answer === 'PONG') return;
    await new Promise((resolve) => setTimeout(resolve, 200).unref());
  }
}

// Bull's typings omit `closing`, the promise it sets when close() starts.
const isClosing = (queue: CheckQueue) => Boolean((queue as CheckQueue & { closing?: Promise<void> }).closing);

function connected(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('end', () => reject(new Error('next_check queue: the blocking connection ended')));
  });
}

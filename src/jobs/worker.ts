import type { CheckQueue } from './check-queue';
import { observedCheck, type CheckContext } from './observed-check';

/**
 * Consumes planned checks, `concurrency` at a time. A throw (conflict, store error) hands the job back to Bull,
 * which retries it with exponential backoff; a worker that dies mid-job loses its lock and the job is retried
 * by another worker.
 */
export function startWorker(queue: CheckQueue, ctx: CheckContext, concurrency: number): void {
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
}

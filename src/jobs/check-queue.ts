import Bull from 'bull';
import type { Kind } from '../store/port';

/** A planned check: the object, and the next_check it was planned for (the run re-reads the real one). */
export interface CheckJob {
  kind: Kind;
  id: string;
  dueAt: number;
}

export type CheckQueue = Bull.Queue<CheckJob>;

/** Bull's lock and retry settings; the defaults suit production, tests shorten them. */
export interface QueueTuning {
  /** How long a job stays locked to its worker without renewal; a killed worker's job is retried after it. */
  lockDurationMs?: number;
  /** How often each worker looks for jobs whose worker died. */
  stalledIntervalMs?: number;
  attempts?: number;
  /** First retry delay; each further retry doubles it. */
  backoffMs?: number;
}

export const QUEUE_NAME = 'next-check';

export function openCheckQueue(redisUrl: string, tuning: QueueTuning = {}): CheckQueue {
  return new Bull<CheckJob>(QUEUE_NAME, redisUrl, {
    settings: {
      lockDuration: tuning.lockDurationMs ?? 30_000,
      stalledInterval: tuning.stalledIntervalMs ?? 30_000,
    },
    defaultJobOptions: {
      attempts: tuning.attempts ?? 8,
      backoff: { type: 'exponential', delay: tuning.backoffMs ?? 1000 },
      // A finished job must not linger: Bull ignores an add whose jobId still exists.
      removeOnComplete: true,
      removeOnFail: true,
    },
  });
}

/** One job per object and planned instant; see bull-scheduler.ts for why the instant is part of the id. */
export const jobIdOf = (kind: Kind, id: string, dueAt: number) => `${kind}:${id}:${dueAt}`;

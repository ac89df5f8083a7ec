import client from 'prom-client';
import { metrics } from '../metrics';

/** Bull jobs by state (waiting, delayed, active, failed), refreshed by every worker node each sweep interval. */
export const queueDepth = new client.Gauge({
  name: 'registry_next_check_queue_depth',
  help: 'next_check jobs in the queue by state',
  labelNames: ['state'] as const,
  registers: [metrics],
});

/** From the object's next_check to the end of the run that handled it: how late transitions happen. */
export const checkLatency = new client.Histogram({
  name: 'registry_next_check_latency_seconds',
  help: 'Delay from an object next_check to the end of its check run, by runner',
  labelNames: ['kind', 'source'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
  registers: [metrics],
});

export const checkRuns = new client.Counter({
  name: 'registry_next_check_runs_total',
  help: 'Check runs by kind, runner and outcome (applied, unchanged, not-due, missing)',
  labelNames: ['kind', 'source', 'outcome'] as const,
  registers: [metrics],
});

export const checkFailures = new client.Counter({
  name: 'registry_next_check_failures_total',
  help: 'Check runs that threw (conflict or error) and will be retried',
  labelNames: ['kind', 'source', 'reason'] as const,
  registers: [metrics],
});

export const sweeperRecoveries = new client.Counter({
  name: 'registry_next_check_sweeper_recoveries_total',
  help: 'Overdue objects the sweeper found without a working job and checked itself',
  labelNames: ['kind'] as const,
  registers: [metrics],
});

export const scheduleFailures = new client.Counter({
  name: 'registry_next_check_schedule_failures_total',
  help: 'Commits whose next_check could not be scheduled (the sweeper catches them up)',
  registers: [metrics],
});

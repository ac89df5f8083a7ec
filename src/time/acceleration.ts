import Joi from 'joi';
import type { Config } from '../config';
import type { Doc } from '../store/port';
import type { DayCount } from './periods';

const DAY = 86_400_000;
/** `tender/core/utils.py::ACCELERATOR_RE`: at least one character must precede `accelerator`. */
const ACCELERATOR_RE = /.accelerator=(\d+)/;

/**
 * The sandbox speed-up of an object's periods (notes/tenders.md §5.1, notes/frameworks.md §3.1): N from
 * `procurementMethodDetails` (tenders) or `frameworkDetails` (frameworks) like `"quick, accelerator=1440"`, only
 * with SANDBOX_MODE; 1 (real time) otherwise. `data` is the object's `data`.
 */
export function accelerationOf(data: Doc, config: Pick<Config, 'sandboxMode'>): number {
  if (!config.sandboxMode) return 1;
  const details = data.procurementMethodDetails ?? data.frameworkDetails;
  const match = typeof details === 'string' ? ACCELERATOR_RE.exec(details) : null;
  const accelerator = match ? Number(match[1]) : 1;
  return accelerator > 0 ? accelerator : 1;
}

/**
 * `accelerated_tender` / `accelerated_framework`: with an accelerator every period end is `date + days / N`, in
 * plain milliseconds: no midnight normalization, no working days, no ceil. Callers keep their own arithmetic when
 * `accelerator` is 1.
 */
export function acceleratedDate(date: Date, count: DayCount, accelerator: number): Date {
  return new Date(date.getTime() + (count.days * DAY) / accelerator);
}

/**
 * The sandbox-only field of a create schema: `{procurementMethodDetails: Joi.string()}` with SANDBOX_MODE, nothing
 * without it, so the strict schema refuses it as a rogue field like the reference's models.
 */
export function sandboxDetailsKeys(
  field: 'procurementMethodDetails' | 'frameworkDetails',
  config: Pick<Config, 'sandboxMode'>,
): Record<string, Joi.Schema> {
  return config.sandboxMode ? { [field]: Joi.string() } : {};
}

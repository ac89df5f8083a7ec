/** The fields of an object's `data` that can carry a sandbox accelerator. */
export interface SandboxDetails {
  procurementMethodDetails?: unknown;
  frameworkDetails?: unknown;
}

/** A whole number of days, counted as working (business) days or as calendar days. */
export interface DayCount {
  days: number;
  working: boolean;
}

const DAY = 86_400_000;
/** `tender/core/utils.py::ACCELERATOR_RE`: at least one character must precede `accelerator`. */
const ACCELERATOR_RE = /.accelerator=(\d+)/;

/**
 * The sandbox speed-up of an object's periods (docs/platform.md §Sandbox acceleration): N from
 * `procurementMethodDetails` (tenders) or `frameworkDetails` (frameworks) like `"quick, accelerator=1440"`; 1 (real
 * time) otherwise. `data` is the object's `data`. Only a SANDBOX_MODE node accepts those fields
 * (`refuseSandboxDetails`), so a stored one always comes from a sandbox.
 */
export function accelerationOf(data: SandboxDetails): number {
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

/** The date arithmetic options of an object: its accelerator, for every period computed from it. */
export const dateMathOf = (data: SandboxDetails): { accelerator: number } => ({ accelerator: accelerationOf(data) });

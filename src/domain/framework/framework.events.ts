/**
 * The framework's state machine, one place for all of it: every transition, what triggers it, the file that applies
 * it and the section that states the rule. Automatic transitions are the events below: `next_check` is the earliest
 * pending `due` (`withNextCheck`) and the check (framework.check.ts) applies whatever is due, from the same list
 * (docs/frameworks.md §Framework next_check).
 *
 * - draft → active: the owner's PATCH `status: active`, with periods, bounds and `next_check`; framework.lifecycle.ts
 *   `patchFramework` (docs/frameworks.md §Framework status machine, §Framework periods, §Qualification-period bounds).
 * - active → active: the owner's `POST …/changes` moves `qualificationPeriod.endDate`, and with it the events and the
 *   agreement; framework-changes.ts (docs/frameworks.md §Framework changes).
 * - active → unsuccessful, its agreement → terminated: event at the submissions check with too few submissions; here,
 *   `checkSubmissions`, the agreement in framework.check.ts (docs/frameworks.md §Framework status machine).
 * - active (not yet successful) → active (successful, never checked again): the same event with enough submissions.
 * - active → complete: event at `qualificationPeriod.endDate`; here, `complete` (docs/frameworks.md §Framework status machine).
 *
 * Its submissions, qualifications and agreement have their own: submission.lifecycle.ts, qualification.lifecycle.ts
 * (docs/frameworks.md §Submission status machine, §Qualification status machine) and agreement.events.ts.
 */
import { dateMathOf } from '../../time/acceleration';
import { frameworkSubmissionsCheckDate } from '../../time/framework-periods';
import { parseIsoDate } from '../../time/kyiv';
import { dueAt, nextCheckOf, type DueEvent } from '../core/events';
import { activatedSubmissionIds } from '../submission';
import type { FrameworkDoc } from './framework.types';
import { frameworkProcedure } from './procedures';

/** An automatic transition of a framework, applied to its stored document (`successful` is kept beside `data`). */
export type FrameworkEvent = DueEvent<FrameworkDoc>;

/** Every submission activated is active or complete, none draft or deleted: too few of them fail the framework. */
function checkSubmissions(framework: FrameworkDoc): void {
  if (activatedSubmissionIds(framework).length < frameworkProcedure(framework.data.frameworkType).minSubmissions) {
    framework.data.status = 'unsuccessful';
  } else framework.successful = true;
}

function complete(framework: FrameworkDoc): void {
  framework.data.status = 'complete';
}

/**
 * The events of an active framework: the submissions check 15 days after the period starts (until it has found the
 * framework successful), then the end of the qualification period. None in any other status.
 */
export function frameworkEvents(framework: FrameworkDoc): FrameworkEvent[] {
  const data = framework.data;
  if (data.status !== 'active') return [];
  const submissionsCheck = frameworkSubmissionsCheckDate(parseIsoDate(data.period!.startDate)!, dateMathOf(data));
  return [
    ...(framework.successful === true ? [] : [{ due: dueAt(submissionsCheck), apply: checkSubmissions }]),
    { due: dueAt(data.qualificationPeriod.endDate), apply: complete },
  ];
}

/** The framework with `next_check` = its earliest event, removed when none is pending (docs/frameworks.md §Framework next_check). */
export function withNextCheck(doc: FrameworkDoc): FrameworkDoc {
  const { next_check: _dropped, ...data } = doc.data;
  const next = nextCheckOf(frameworkEvents(doc));
  return { ...doc, data: next ? { ...data, next_check: next } : data };
}

import { isBroker, seesRestricted, type Viewer } from '../../http/auth';
import { authorPaths } from '../../masking/fragments';
import { applyMask, type MaskTable } from '../../masking/mask';
import type { FrameworkDoc } from '../framework/framework.types';
import type { Question } from './question.types';

/** Spec hiding rules, `$..questions[*]`: title, description, answer, and author as for complaints (docs/masking.md §Framework questions). */
const QUESTION_MASK: MaskTable = ['$.title', '$.description', '$.answer', ...authorPaths('$.author')];

/**
 * On a framework with restricted derivatives, the hidden view for everyone but the framework's owner, the
 * broker that asked the question (its own question, the 201 included) and `r` brokers.
 * See docs/masking.md §Framework questions, §Who sees what.
 */
export function presentQuestion(question: Question, framework: FrameworkDoc, viewer: Viewer): Question {
  const name = isBroker(viewer) ? viewer.account!.name : undefined;
  const whole =
    framework.config?.restrictedDerivatives !== true ||
    seesRestricted(viewer) ||
    (name !== undefined && (name === framework.data.owner || name === framework.questionOwners?.[question.id]));
  return whole ? question : applyMask(question, QUESTION_MASK);
}

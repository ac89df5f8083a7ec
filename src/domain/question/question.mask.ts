import { authorPaths } from '../../masking/fragments';
import type { MaskTable } from '../../masking/mask';

/** Spec hiding rules, `$..questions[*]`: title, description, answer, and author as for complaints (docs/masking.md §Framework questions). */
export const QUESTION_MASK: MaskTable = ['$.title', '$.description', '$.answer', ...authorPaths('$.author')];

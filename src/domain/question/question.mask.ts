import { addressPaths } from '../../masking/fragments';
import type { MaskTable } from '../../masking/mask';

const CONTACT = ['telephone', 'email', 'faxNumber', 'url', 'name', 'name_en', 'name_ru'];

/** Spec hiding rules, `$..questions[*]`: title, description, answer, and author as for complaints. */
export const QUESTION_MASK: MaskTable = [
  '$.title',
  '$.description',
  '$.answer',
  '$.author.name',
  '$.author.name_en',
  '$.author.name_ru',
  '$.author.identifier.id',
  '$.author.identifier.legalName',
  '$.author.identifier.legalName_en',
  '$.author.identifier.legalName_ru',
  ...addressPaths('$.author.address'),
  ...CONTACT.map((f) => `$.author.contactPoint.${f}`),
  ...CONTACT.map((f) => `$.author.additionalContactPoints[*].${f}`),
];

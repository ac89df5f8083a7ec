/**
 * The spec's hiding tables ("Hiding rules for restricted objects"), transcribed row by row in the spec's own
 * notation and expanded here, independently of the product's mask tables (src/masking/, *.mask.ts,
 * *.access.ts): the canary suite plants a canary in every path below, so a field the spec names that a product
 * table forgets fails it. See docs/masking.md for where each row comes from.
 *
 * Notation, as in the spec: `a.{x,y}` is `a.x` and `a.y` (nested freely); `x(+_en,_ru)` is `x`, `x_en`, `x_ru`;
 * `<addr>`, `<org>` are the spec's abbreviations; `<contact>` is `contactPoint.*` (every field of the spec's
 * Organization `contactPoint`); `<author>` is the complaint/question author of the spec's `$..complaints[*]` row.
 * `(+_en,_ru)` after the `<addr>` list applies to each of its fields, and `<org>`'s contacts include
 * `additionalContactPoints[*]` (docs/masking.md §Shared fragments).
 */
const ABBREVIATIONS: Record<string, string> = {
  '<addr>': '{streetAddress(+_en,_ru),locality(+_en,_ru),region(+_en,_ru),postalCode(+_en,_ru),countryName(+_en,_ru)}',
  '<contact>': '{telephone,email,faxNumber,url,name(+_en,_ru)}',
  '<org>':
    '{name(+_en,_ru),identifier.id,identifier.legalName(+_en,_ru),address.<addr>,contactPoint.{telephone,email,faxNumber,url,name(+_en,_ru)},additionalContactPoints[*].{telephone,email,faxNumber,url,name(+_en,_ru)},scale}',
  '<author>':
    '{name(+_en,_ru),identifier.id,identifier.legalName(+_en,_ru),address.<addr>,contactPoint.<contact>,additionalContactPoints[*].<contact>}',
};

const DELIVERY = '{deliveryDate.startDate,deliveryDate.endDate,deliveryAddress.<addr>}';
const DELIVERY_AND_LOCATION =
  '{deliveryDate.startDate,deliveryDate.endDate,deliveryAddress.<addr>,deliveryLocation.latitude,deliveryLocation.longitude}';

/** Spec: Tender (`restricted=true`), one entry per table row. */
export const TENDER_ROWS = [
  `$.items[*].${DELIVERY}`,
  '$.bids[*].tenderers[*].<org>',
  '$.bids[*].{participationUrl,subcontractingDetails}',
  '$.bids[*].lotValues[*].{participationUrl,subcontractingDetails}',
  '$.awards[*].suppliers[*].<org>',
  `$.contracts[*].items[*].${DELIVERY_AND_LOCATION}`,
  '$.contracts[*].suppliers[*].<org>',
  '$.bids[*].{documents,eligibilityDocuments,qualificationDocuments,financialDocuments}[*].{title,url,confidentialityRationale}',
  '$.{awards,contracts}[*].documents[*].{title,url}',
  '$..complaints[*].{title,description,resolution,tendererAction,decision,rejectReasonDescription,reviewPlace,cancellationReason}',
  '$..complaints[*].documents[*].{title,url}',
  '$..complaints[*].posts[*].{title,description,documents[*].{title,url}}',
  '$..complaints[*].objections[*].{title,description,classification.description,requestedRemedies[*].{type,description},arguments[*].description,arguments[*].evidences[*].{title,description}}',
  '$..complaints[*].author.<author>',
  '$..questions[*].{title,description,answer}',
  '$..questions[*].author.<author>',
];

/**
 * Not the spec's: the registry's own row for bids' requirement responses, whose texts could name the bidder or repeat
 * a hidden bid document's title (docs/masking.md §Tender).
 */
export const BID_RESPONSE_ROWS = [
  '$.bids[*].requirementResponses[*].evidences[*].{title(+_en,_ru),description(+_en,_ru),relatedDocument.title}',
  '$.bids[*].requirementResponses[*].relatedTenderer.{id,title}',
];

/** Spec: Contract (`restricted=true`). */
export const CONTRACT_ROWS = [
  `$.items[*].${DELIVERY_AND_LOCATION}`,
  '$.suppliers[*].<org>',
  '$.suppliers[*].signerInfo.{name,email,telephone,iban,position,authorizedBy}',
  '$.changes[*].{rationale,rationale_ru,rationale_en}',
  '$..documents[*].{title,url}',
];

/**
 * Spec: submission documents' `title` and `url`; tenderers' `address.*` and `contactPoint.*` — every contact point,
 * `additionalContactPoints[*]` included (issue 17 defect 4; docs/masking.md §Submission).
 */
export const SUBMISSION_ROWS = [
  '$.tenderers[*].address.<addr>',
  '$.tenderers[*].contactPoint.<contact>',
  '$.tenderers[*].additionalContactPoints[*].<contact>',
  '$.documents[*].{title,url}',
];

/** Spec: qualification documents' `title` and `url`. */
export const QUALIFICATION_ROWS = ['$.documents[*].{title,url}'];

/**
 * The spec hides "restricted parts" of an agreement without a table of its own; its contracts' suppliers are the
 * submissions' tenderers, hidden as those are, and every document's title and url (docs/masking.md §Agreement).
 */
export const AGREEMENT_ROWS = [
  '$.contracts[*].suppliers[*].address.<addr>',
  '$.contracts[*].suppliers[*].{contactPoint,additionalContactPoints[*]}.<contact>',
  '$.{documents,contracts[*].documents,contracts[*].milestones[*].documents}[*].{title,url}',
];

/** Spec: `$..questions[*]` row, for one framework question. */
export const QUESTION_ROWS = ['$.{title,description,answer}', '$.author.<author>'];

function braceExpand(text: string): string[] {
  const open = text.indexOf('{');
  if (open < 0) return [text];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < text.length && close < 0; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) close = i;
    else if (text[i] === ',' && depth === 1 && !text.slice(0, i).endsWith('(+_en')) commas.push(i);
  }
  const bounds = [open, ...commas, close];
  const options = bounds.slice(0, -1).map((b, i) => text.slice(b + 1, bounds[i + 1]));
  return options.flatMap((o) => braceExpand(text.slice(0, open) + o + text.slice(close + 1)));
}

const translations = (path: string) =>
  path.includes('(+_en,_ru)') ? ['', '_en', '_ru'].map((s) => path.replace('(+_en,_ru)', s)) : [path];

/** Every concrete path a list of spec rows names. */
export function expandRows(rows: string[]): string[] {
  const paths = rows.flatMap((row) => {
    let text = row;
    while (/<\w+>/.test(text)) text = text.replace(/<\w+>/g, (a) => ABBREVIATIONS[a] ?? a);
    return braceExpand(text).flatMap(translations);
  });
  return [...new Set(paths)];
}

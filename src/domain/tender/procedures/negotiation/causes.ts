import type { CauseEntry } from '../cause-details';

/*
 * The `causeDetails.code` values a negotiation (or negotiation.quick) tender may give, each with what the server
 * fills in from it (docs/tenders.md §negotiation and negotiation.quick, "Cause"): the Prozorro standards' lists as
 * of openprocurement.api 1.0.274, in the lists' order (the refusal text prints it).
 */

/** negotiation: `codelists/tender/tender_cause_details/negotiation.json`, archived entries left out. */
export const NEGOTIATION_CAUSES: Record<string, CauseEntry> = {
  twiceUnsuccessful: {
    scheme: 'DECREE1178',
    title: 'Підпункт 1 пункту 13',
    title_en: 'Subparagraph 1 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  noCompetition: {
    scheme: 'DECREE1178',
    title: 'Підпункт 2 пункту 13',
    title_en: 'Subparagraph 2 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  additionalPurchase: {
    scheme: 'DECREE1178',
    title: 'Підпункт 4 пункту 13',
    title_en: 'Subparagraph 4 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  additionalConstruction: {
    scheme: 'DECREE1178',
    title: 'Підпункт 5 пункту 13',
    title_en: 'Subparagraph 5 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  insolvency: {
    scheme: 'DECREE1178',
    title: 'Підпункт 6 пункту 13',
    title_en: 'Subparagraph 6 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  legalServices: {
    scheme: 'DECREE1178',
    title: 'Підпункт 7 пункту 13',
    title_en: 'Subparagraph 7 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  defenseNeeds: {
    scheme: 'DECREE1178',
    title: 'Підпункт 8 пункту 13',
    title_en: 'Subparagraph 8 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  criticalInfrastructure: {
    scheme: 'DECREE1178',
    title: 'Підпункт 9 пункту 13',
    title_en: 'Subparagraph 9 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  activeWarZone: {
    scheme: 'DECREE1178',
    title: 'Підпункт 10 пункту 13',
    title_en: 'Subparagraph 10 of paragraph 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
};

/** negotiation.quick: `codelists/tender/tender_cause_details/negotiation.quick.json`, archived entries left out. */
export const NEGOTIATION_QUICK_CAUSES: Record<string, CauseEntry> = {
  unforeseeableUrgentNeed: {
    scheme: 'DECREE1178',
    title: 'Абзац 2 підпункту 3 пункту 13',
    title_en: 'Paragraph 2, subparagraph 3, clause 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  humanitarianAidProvision: {
    scheme: 'DECREE1178',
    title: 'Абзац 3 підпункту 3 пункту 13',
    title_en: 'Paragraph 3, subparagraph 3, clause 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  participantContractTermination: {
    scheme: 'DECREE1178',
    title: 'Абзац 4 підпункту 3 пункту 13',
    title_en: 'Paragraph 4, subparagraph 3, clause 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  tenderDecisionAppeal: {
    scheme: 'DECREE1178',
    title: 'Абзац 5 підпункту 3 пункту 13',
    title_en: 'Paragraph 5, subparagraph 3, clause 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
  essentialServicesProcurement: {
    scheme: 'DECREE1178',
    title: 'Абзац 16 підпункту 10 пункту 13',
    title_en: 'Paragraph 16, subparagraph 10, clause 13',
    uri: 'https://www.kmu.gov.ua/npas/pro-vnesennia-zmin-do-postanov-kabinetu-ministriv-ukrainy-vid-12-zhovtnia-2022-r-1178-i-vid-t150726',
  },
};

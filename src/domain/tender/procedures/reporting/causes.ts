import type { CauseEntry } from '../cause-details';

/**
 * The `causeDetails.code` values a reporting tender may give, each with what the server fills in from it
 * (docs/tenders.md §reporting, "Cause"): the Prozorro standards' reporting cause list as of openprocurement.api
 * 1.0.274 (standards 1.0.274, `codelists/tender/tender_cause_details/reporting.json`), archived entries left out,
 * in the list's order (the refusal text prints it).
 */
export const REPORTING_CAUSES: Record<string, CauseEntry> = {
  naturalGas: {
    scheme: 'DECREE1178',
    title: 'Підпункт 18 пункту 13',
    title_en: 'Subparagraph 18 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  belowThresholdUnsuccessful: {
    scheme: 'DECREE1275',
    title: 'Підпункт 2 пункту 9',
    title_en: 'Subparagraph 2 of paragraph 9',
    uri: 'https://zakon.rada.gov.ua/laws/show/1275-2022-%D0%BF#n18',
  },
  defenceVehiclesRepair: {
    scheme: 'DECREE1275',
    title: 'Підпункт 3 пункту 9',
    title_en: 'Subparagraph 3 of paragraph 9',
    uri: 'https://zakon.rada.gov.ua/laws/show/1275-2022-%D0%BF#n18',
  },
  defenceRecruitment: {
    scheme: 'DECREE1275',
    title: 'Підпункт 4 пункту 9',
    title_en: 'Subparagraph 4 of paragraph 9',
    uri: 'https://zakon.rada.gov.ua/laws/show/1275-2022-%D0%BF#n18',
  },
  defenceVehicles: {
    scheme: 'DECREE1275',
    title: 'Підпункт 5 пункту 9',
    title_en: 'Subparagraph 5 of paragraph 9',
    uri: 'https://zakon.rada.gov.ua/laws/show/1275-2022-%D0%BF#n18',
  },
  heatingSeason: {
    scheme: 'DECREE1178',
    title: 'Підпункт 22 пункту 13',
    title_en: 'Subparagraph 22 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  openUnsuccessful: {
    scheme: 'DECREE1178',
    title: 'Підпункт 6 пункту 13',
    title_en: 'Subparagraph 6 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  combatArea: {
    scheme: 'DECREE1178',
    title: 'Підпункт 2 пункту 13',
    title_en: 'Subparagraph 2 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  legalServices: {
    scheme: 'DECREE1178',
    title: 'Підпункт 9 пункту 13',
    title_en: 'Subparagraph 9 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  sportEvents: {
    scheme: 'DECREE1178',
    title: 'Підпункт 11 пункту 13',
    title_en: 'Subparagraph 11 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  criticalInfrastructure: {
    scheme: 'DECREE1178',
    title: 'Підпункт 13 пункту 13',
    title_en: 'Subparagraph 13 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  civilProtection: {
    scheme: 'DECREE1178',
    title: 'Підпункт 15 пункту 13',
    title_en: 'Subparagraph 15 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  marketUnsuccessful: {
    scheme: 'DECREE1178',
    title: 'Підпункт 16 пункту 13',
    title_en: 'Subparagraph 16 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  RNBO: {
    scheme: 'DECREE1178',
    title: 'Підпункт 17 пункту 13',
    title_en: 'Subparagraph 17 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  insurance: {
    scheme: 'DECREE1178',
    title: 'Підпункт 19 пункту 13',
    title_en: 'Subparagraph 19 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  inclusivity: {
    scheme: 'DECREE1178',
    title: 'Абзац 40 пункту 13',
    title_en: 'Paragraph 40 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  missingPersonsSearch: {
    scheme: 'DECREE1178',
    title: 'Абзац 2 пункту 9',
    title_en: 'Paragraph 2 of Clause 9',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  DUS: {
    scheme: 'DECREE1178',
    title: 'Абзац 3 пункту 9',
    title_en: 'Paragraph 3 of clause 9',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  experimentalUnitNext: {
    scheme: 'DECREE1178',
    title: 'Абзац 8 пункту 9',
    title_en: 'Paragraph 8 of clause 9',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  UZ: {
    scheme: 'DECREE1178',
    title: 'Підпункт 20 пункту 13',
    title_en: 'Subparagraph 20 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  defencePurchase: {
    scheme: 'DECREE1178',
    title: 'Підпункт 21 пункту 13',
    title_en: 'Subparagraph 21 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  quick: {
    scheme: 'DECREE1178',
    title: 'Підпункт 4 пункту 13',
    title_en: 'Subparagraph 4 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  additionalPurchase: {
    scheme: 'DECREE1178',
    title: 'Підпункт 7 пункту 13',
    title_en: 'Subparagraph 7 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  additionalConstruction: {
    scheme: 'DECREE1178',
    title: 'Підпункт 8 пункту 13',
    title_en: 'Subparagraph 8 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  stateLegalServices: {
    scheme: 'DECREE1178',
    title: 'Підпункт 10 пункту 13',
    title_en: 'Subparagraph 10 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  artPurchase: {
    scheme: 'DECREE1178',
    title: 'Абзац 2 підпункту 5 пункту 13',
    title_en: 'Paragraph 2, subparagraph 5, clause 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  contestWinner: {
    scheme: 'DECREE1178',
    title: 'Абзац 3 підпункту 5 пункту 13',
    title_en: 'Paragraph 3, subparagraph 5, clause 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  technicalReasons: {
    scheme: 'DECREE1178',
    title: 'Абзац 4 підпункту 5 пункту 13',
    title_en: 'Paragraph 4, subparagraph 5, clause 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  intProperty: {
    scheme: 'DECREE1178',
    title: 'Абзац 5 підпункту 5 пункту 13',
    title_en: 'Paragraph 5, subparagraph 5, clause 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  hematopoieticStemCells: {
    scheme: 'LAW922',
    title: 'Пункт 21 частини 5 статті 3',
    title_en: 'Clause 21, Part 5, Article 3',
    uri: 'https://zakon.rada.gov.ua/laws/show/922-19/ed20251031#n823',
  },
  lastHope: {
    scheme: 'DECREE1178',
    title: 'Абзац 6 підпункту 5 пункту 13',
    title_en: 'Paragraph 6, subparagraph 5, clause 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  gasInstallations: {
    scheme: 'DECREE1178',
    title: 'Підпункт 25 пункту 13',
    title_en: 'Subparagraph 25 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  stateDebtServices: {
    scheme: 'DECREE1178',
    title: 'Підпункт 26 пункту 13',
    title_en: 'Subparagraph 26 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  energyCrisisRecovery: {
    scheme: 'DECREE1178',
    title: 'Підпункт 28 пункту 13',
    title_en: 'Subparagraph 28 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  nuclearOperatorCorporateGovernance: {
    scheme: 'DECREE1178',
    title: 'Підпункт 29 пункту 13',
    title_en: 'Subparagraph 29 of paragraph 13',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  cancellationOfAboveThreshold: {
    scheme: 'DECREE1178',
    title: 'Пункт 86',
    title_en: 'Paragraph 86',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  cancellationOfPriceQuatation: {
    scheme: 'DECREE1178',
    title: 'Пункт 89',
    title_en: 'Paragraph 89',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
  reportingEligibilityException: {
    scheme: 'DECREE1178',
    title: 'Пункт 91',
    title_en: 'Paragraph 91',
    uri: 'https://zakon.rada.gov.ua/laws/show/1178-2022-%D0%BF#n426',
  },
};

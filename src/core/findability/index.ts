// Findability (issue 17): the report, before/after, and its text form.
export { findabilityReport, findabilityReportInSteps, DEFAULT_FINDABILITY_LIMIT, HARD_SCORE } from './report';
export { MIN_DESCRIPTION_WORDS } from './tool-words';
export { compareFindability } from './compare';
export { formatFindability, formatComparison, findableLine, atRiskCounts, atRiskWords, AT_RISK_WORDS } from './format';
export type { AtRiskCounts } from './format';
export { ownQueries, queryFrom } from './queries';
export type * from './types';
export { findabilityInputAt } from './timeline';
export type { TimelineFindability } from './timeline';
export { FINDABILITY_RANKERS } from './rankers';

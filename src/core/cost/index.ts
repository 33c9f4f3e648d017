// What discovery costs: the prompt-cache model run over a timeline, the all-on counterfactual, the
// break-even sweep. The shells import from here (through ../index.ts).
export { costOfTimeline, costOfTimelineInSteps, rulesFor, NO_TOTALS } from './conversation';
export type { ConversationCost, RequestCost, CostTotals, CostOptions } from './conversation';
export { allOnScenario, compareDiscovery, compareDiscoveryInSteps, everDiscoverable, savingOf, ALL_ON_LAYER } from './counterfactual';
export type { DiscoveryComparison, Saving, Variant, Runner } from './counterfactual';
export { breakEven, DEFAULT_MESSAGE_TOKENS } from './breakeven';
export type { BreakEvenInput, BreakEvenResult, BreakEvenCell, MessageTokens } from './breakeven';
export { catalogueSizes } from './sizes';
export type { CatalogueSizes } from './sizes';
export { TokenMemo, requestSegments, splitJsonArray } from './segments';
export { CACHE_RULES, cacheRulesFor } from '../providers/cache-rules';
export type { CacheRules, CacheKind, Citation, CacheSection } from '../providers/cache-rules';
export { cacheStep, effectiveRules, priceRequest, cachedLength, EMPTY_CACHE } from '../providers/cache-model';
export type { CacheFigures, EffectiveRules, RequestMoney, Segment, PromptShape, CacheState } from '../providers/cache-model';
export { DEFAULT_PRICE_TABLE, modelFor, modelsFor, validatePriceTable, priceDateLabel } from '../providers/prices';
export type { ModelPrice, PriceTable, PriceTableCheck } from '../providers/prices';
export { cacheStatus } from './cache-status';
export type { CacheStatus } from './cache-status';

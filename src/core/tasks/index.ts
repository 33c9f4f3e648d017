// Task sets run against a catalogue design (RFD 108 phase 5). The shells import from here.
export { runTasks, runTask, prepareTasks, playTask, finishRun, taskStep, taskStepDoc } from './run';
export type { TaskRunOptions, PreparedTasks } from './run';
export { taskOutcome } from './outcome';
export { POLICIES } from './policies';
export type { TaskPolicy, PolicyContext } from './policies';
export { categoriesOf, categoryToolsAt, matchingCategory, namePrefix, CATEGORIES_HEADING } from './categories';
export type { CategoriesSection, Category, CategoryTool } from './categories';
export { summarize, summaryLine, searchRatios, silentMissLines, runNotes, resultsJsonl, resultsCsv, CSV_HEADER } from './summary';
export { OUTCOMES, OUTCOME_LABELS, POLICY_NAMES } from './types';
export type { Outcome, NeededState, NeededTool, TaskResult, TaskRun, TaskSummary, TaskTokens, PolicyName, Task } from './types';
export { allDiscoverableDoc } from './catalogue';
export { playModelTurn, modelStep, modelCycles, modelMoves, simulateEveryCall, MODEL_MAX_CYCLES } from './model-play';
export type { AskModel, ModelAnswer, ModelRequest, ModelCycle, ModelTurn, PlayedCall, CallKind, CallAnswer, ResolveCall, StopReason } from './model-play';
export { runModelTasks, runModelTask, playModelTask, forProvider, finishModelRun, notAsked, calibrationAcrossTasks, calibrationGaps, withCarriedCache } from './model-run';
export type { ModelTaskRun, ModelTaskResult, ModelRunOptions, CalibrationRow } from './model-run';
export { mcnemarExact, formatP, parseAbSwitch, armB, pairArms, abLine, runAbTasks, isMet } from './ab';
export type { AbSwitch, AbPair, AbResult, AbRun, AbRunOptions, Arm } from './ab';

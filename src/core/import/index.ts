// Importing MCP catalogues (files, pasted text, live servers' replies) into
// scenarios, exporting scenarios as JP config, and what discovery saves.
export { MAX_CATALOGUE_BYTES, MAX_MESSAGE_BYTES, readCatalogue, readCatalogueValue, checkCatalogueSize, formatBytes, serverNameFromFileName } from './catalogue';
export type { Catalogue, CatalogueForm, CatalogueRead, ImportedServer } from './catalogue';
export { MAX_TOOL_DEPTH, nestsDeeperThan, tooDeepTool } from './depth';
export { buildImport, applyImport, startingStep, usefulnessOrder, toolHints, configuredToolNames, DEFAULT_KEEP, DEFAULT_POLICY as DEFAULT_STARTING_POLICY } from './generate';
export type { StartingPolicy, PolicyKind, ServerMode, ImportOptions, ImportResult, GeneratedTool, ToolHints } from './generate';
export { serverSlug, toolSlug, localToolNames, isValidToolName } from './names';
export { discoverySavings, compareWithRfd, compareWithSelection, RFD_TOKENS_QUOTE, RFD_TOKENS_BAND, SELECTION_THRESHOLD } from './savings';
export type { Savings, ServerSavings, CostFigure } from './savings';
export { diffToolLists, diffWords, sameDiff, prefixCacheImpact, isEmptyDiff, canonicalJson } from './diff';
export type { ToolListDiff, ServerToolPlace, CacheImpact, ChangedField } from './diff';
export { exportJpConfig, readJpConfig, WORKBENCH_ONLY_TOOL_KEYS, SERVERS_FILE, CONFIG_FILE } from './export';
export type { JpConfigFile, JpExport, StrippedKey } from './export';
export { snapshotCatalogue, snapshotServersToml } from './snapshot';
export type { Snapshot, SnapshotServer } from './snapshot';

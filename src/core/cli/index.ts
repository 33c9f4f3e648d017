export { parseCommand, DEFAULT_LAYER, SUPPORTED_COMMANDS } from './parse';
export type { CfgAssignment, Command, CommandError, ConfigSetCommand, ConfigSetTarget, Directive, ParseResult, QueryCommand, Span, ToolUse } from './parse';
export { formatAssignment, formatCommand, stripSpans } from './format';
export type { CommandInput, SpanKey, Unspanned } from './format';
export { quoteShellWord, spanColumns, splitShellWords, wordSubspan } from './shell';
export type { ShellError, ShellWord, SplitResult } from './shell';
export { checkJson } from './json';
export type { JsonCheck } from './json';

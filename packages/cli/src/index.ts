/**
 * `@weft/cli`: the `weft` command as a library. `runCli(argv)` runs a command
 * line and returns its exit code; the table in `commands` lists every command.
 */
export {
  type CliIo,
  cliVersion,
  type ParseOutcome,
  parseCommandLine,
  processIo,
  runCli,
  type TextSink,
} from './cli/index.js';
export { callRow, formatCallsTable } from './commands/calls/calls-table.js';
export { fetchCalls, type FetchedCalls } from './commands/calls/fetch-calls.js';
export { type CallAtDepth, traceOrder } from './commands/calls/trace-order.js';
export {
  type CallsOptions,
  type CommandEntry,
  type CommandRun,
  type CommandSpec,
  commands,
  defineCommand,
  type EvalCompareOptions,
  type ResolvedCommand,
  type ServeOptions,
} from './commands/index.js';
export {
  ServerResponseError,
  ServerUnreachableError,
  TraceNotFoundError,
  UsageError,
} from './errors/index.js';
export { ExitCode, exitCodeFor } from './exit/index.js';
export { getJson, postJson, requestJson, type ServerTarget } from './http/request-json.js';

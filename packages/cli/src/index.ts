/**
 * `@weft/cli`: the `weft` command as a library. `runCli(argv)` runs a command
 * line and returns its exit code; the table in `commands` lists every command.
 */
export { cliVersion, type ParseOutcome, parseCommandLine, runCli } from './cli/index.js';
export { type CallAtDepth, callRow, formatCallsTable, traceOrder } from './commands/calls/index.js';
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
  CallNotFoundError,
  ServerResponseError,
  ServerUnreachableError,
  TraceNotFoundError,
  UsageError,
} from './errors/index.js';
export { ExitCode, exitCodeFor } from './exit/index.js';
export { type FetchedCalls, fetchCalls } from './server-api/index.js';
export { getJson, postJson, requestJson, type ServerTarget } from './http/index.js';
export { type CliIo, processIo, type TextSink } from './io/index.js';

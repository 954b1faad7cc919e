export { type CliIo, processIo, type TextSink } from './cli-io.js';
export { type ParseOutcome, parseCommandLine } from './parse-command-line.js';
export { runCli } from './run-cli.js';
export { cliVersion } from './version.js';

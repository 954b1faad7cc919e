export { type ParseOutcome, parseCommandLine } from './parse-command-line.js';
export { runCli } from './run-cli.js';
export { cliVersion } from '../version/index.js';

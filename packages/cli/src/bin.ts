import { runCli } from './cli/index.js';

// The only place that touches the process's exit status; runCli itself never exits.
process.exitCode = await runCli(process.argv.slice(2));

import { exitCodeFor } from '../exit/index.js';
import { type CliIo, processIo } from '../io/index.js';
import { parseCommandLine } from './parse-command-line.js';
import { reportError } from './report-error.js';

/**
 * Runs `weft` with `argv` (the words after `weft`) and returns the exit
 * code; never exits the process itself, so it can be called from tests and
 * scripts. Errors are reported as one line on `io.stderr`.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const outcome = parseCommandLine(argv, io);
  if (outcome.kind === 'exit') return outcome.exitCode;
  try {
    return await outcome.command.run(io);
  } catch (error) {
    reportError(error, io);
    return exitCodeFor(error);
  }
}

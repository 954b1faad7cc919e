import { WeftError } from '@weft/protocol';
import { Command, CommanderError } from 'commander';
import { type CommandEntry, commandGroups, commands, type ResolvedCommand } from '../commands/index.js';
import { ExitCode, exitCodeFor } from '../exit/index.js';
import type { CliIo } from '../io/index.js';
import { reportError } from './report-error.js';
import { cliVersion } from '../version/index.js';

/** What a command line comes to: a command to run, or an exit (help, version, usage error). */
export type ParseOutcome =
  | { kind: 'command'; command: ResolvedCommand }
  | {
      kind: 'exit';
      exitCode: number;
      /** The usage error, when there was one (its message is already on stderr). */
      error?: WeftError | CommanderError | undefined;
    };

const EXIT_CODES_HELP = `
Exit codes:
  0  ok
  1  runtime failure (e.g. server unreachable)
  2  usage error (unknown flag, bad value, missing setting)
  3  the server refused the token
  4  not found

Docs: docs/cli.md`;

/**
 * Parses `argv` (the words after `weft`) against the command table without
 * running anything. Help and version are written to `io.stdout`, usage errors
 * to `io.stderr`; both come back as an exit outcome.
 */
export function parseCommandLine(
  argv: readonly string[],
  io: CliIo,
  table: readonly CommandEntry[] = commands,
): ParseOutcome {
  let chosen: ResolvedCommand | undefined;
  const program = buildProgram(io, table, (command) => {
    chosen = command;
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version exit 0. Every other commander error, including
      // help shown because a command word was missing, is a usage error.
      const ok = error.exitCode === 0;
      return { kind: 'exit', exitCode: ok ? ExitCode.ok : ExitCode.usage, error: ok ? undefined : error };
    }
    if (WeftError.isInstance(error)) {
      reportError(error, io);
      return { kind: 'exit', exitCode: exitCodeFor(error), error };
    }
    throw error;
  }
  if (!chosen) throw new Error('weft: a command matched but did not resolve; this is a bug');
  return { kind: 'command', command: chosen };
}

function buildProgram(
  io: CliIo,
  table: readonly CommandEntry[],
  choose: (c: ResolvedCommand) => void,
): Command {
  const program = new Command('weft')
    .description('Weft: tracing for LLM apps. Runs the trace server and reads what it stored.')
    .version(cliVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    // A command's flags are read only before its subcommand's word
    // (`weft calls --user u` vs `weft calls export --user u`): the words after
    // it go to the subcommand whole.
    .enablePositionalOptions()
    // Settings below are copied to every subcommand created after them.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`weft: ${text}`),
    })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP);
  for (const entry of table) {
    const command = parentFor(program, entry.path).command(entry.path.at(-1)!).description(entry.summary);
    entry.configure(command);
    command.action((...args: unknown[]) => {
      // commander passes the positional arguments, then the flags, then the command.
      const positional = args.slice(0, -2).filter((a): a is string => typeof a === 'string');
      choose(entry.resolve(positional, command.opts(), io.env));
    });
  }
  return program;
}

/** The command that holds `path`'s last word, creating group commands (`outbox`) on the way. */
function parentFor(program: Command, path: readonly string[]): Command {
  let parent = program;
  for (const word of path.slice(0, -1)) {
    parent =
      parent.commands.find((c) => c.name() === word) ??
      parent.command(word).description(commandGroups[word] ?? `${word} commands`);
  }
  return parent;
}

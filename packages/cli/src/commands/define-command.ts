import type { Command } from 'commander';
import type { CliIo } from '../io/index.js';

/** A command's implementation: a plain function of its typed options. */
export type CommandRun<O> = (options: O, io: CliIo) => Promise<number>;

/**
 * One row of the command table. `F` is the shape of the flags its `configure`
 * declares (commander's camel-cased names, values after their parsers).
 */
export interface CommandSpec<O, F = Record<string, unknown>> {
  /** Words that invoke it: `['serve']`, `['outbox', 'replay']`. */
  path: readonly string[];
  summary: string;
  /** Declares arguments and flags (with their value parsers) on the commander command. */
  configure(command: Command): void;
  /**
   * Turns what commander parsed (positional arguments, then the flags object)
   * plus the environment into the command's typed options; throws
   * `UsageError` when a required setting is missing. Pure, so tests can check
   * every flag and fallback without running anything.
   */
  resolve(args: readonly string[], flags: Partial<F>, env: CliIo['env']): O;
  /** Imports the implementation only when the command runs (keeps `weft --help` fast). */
  load(): Promise<CommandRun<O>>;
}

/** A command line resolved to a command, ready to run. */
export interface ResolvedCommand {
  path: readonly string[];
  /** The typed options, as the implementation will receive them. */
  options: unknown;
  run(io: CliIo): Promise<number>;
}

/** A row of the command table with its option type erased, so rows of different types share a table. */
export interface CommandEntry {
  path: readonly string[];
  summary: string;
  configure(command: Command): void;
  resolve(args: readonly string[], flags: Record<string, unknown>, env: CliIo['env']): ResolvedCommand;
}

/** Declares a command; the returned entry goes into the table in `commands/index.ts`. */
export function defineCommand<O, F = Record<string, unknown>>(spec: CommandSpec<O, F>): CommandEntry {
  return {
    path: spec.path,
    summary: spec.summary,
    configure: spec.configure,
    resolve(args, flags, env) {
      // commander's opts() is untyped; `configure` declared exactly these flags.
      const options = spec.resolve(args, flags as Partial<F>, env);
      return {
        path: spec.path,
        options,
        run: async (io) => (await spec.load())(options, io),
      };
    },
  };
}

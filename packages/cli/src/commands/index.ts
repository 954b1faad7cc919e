import { callsCommand } from './calls/calls-command.js';
import type { CommandEntry } from './define-command.js';
import { evalCompareCommand } from './eval/eval-compare-command.js';
import { serveCommand } from './serve/serve-command.js';

/**
 * Every `weft` command, in help order. Each row declares its flags and how
 * they resolve; its implementation is imported only when it runs.
 */
export const commands: readonly CommandEntry[] = [serveCommand, callsCommand, evalCompareCommand];

export type { CallsOptions } from './calls/calls-command.js';
export type { CommandEntry, CommandRun, CommandSpec, ResolvedCommand } from './define-command.js';
export { defineCommand } from './define-command.js';
export type { EvalCompareOptions } from './eval/eval-compare-command.js';
export type { ServeOptions } from './serve/serve-command.js';

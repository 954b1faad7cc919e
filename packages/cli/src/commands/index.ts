import { callsCommand } from './calls/calls-command.js';
import type { CommandEntry } from './define-command.js';
import { evalCompareCommand } from './eval/eval-compare-command.js';
import { outboxReplayCommand, outboxStatusCommand } from './outbox/outbox-command.js';
import { serveCommand } from './serve/serve-command.js';

/**
 * Every `weft` command, in help order. Each row declares its flags and how
 * they resolve; its implementation is imported only when it runs.
 */
export const commands: readonly CommandEntry[] = [
  serveCommand,
  callsCommand,
  evalCompareCommand,
  outboxStatusCommand,
  outboxReplayCommand,
];

/** Help lines of the words that group commands (`weft eval compare`). */
export const commandGroups: Readonly<Record<string, string>> = {
  eval: 'Evaluation runs recorded on the server (compare)',
  outbox: 'The durable outbox of records not yet sent (status, replay)',
};

export type { CallsOptions } from './calls/calls-command.js';
export type { CommandEntry, CommandRun, CommandSpec, ResolvedCommand } from './define-command.js';
export { defineCommand } from './define-command.js';
export type { EvalCompareOptions } from './eval/eval-compare-command.js';
export type { OutboxReplayOptions, OutboxStatusOptions } from './outbox/outbox-command.js';
export type { ServeOptions } from './serve/serve-command.js';

import { callCommand } from './call/call-command.js';
import { callsCommand } from './calls/calls-command.js';
import { callsDeleteCommand } from './calls/calls-delete-command.js';
import { callsExportCommand } from './calls/calls-export-command.js';
import { datasetsCommand } from './datasets/datasets-command.js';
import type { CommandEntry } from './define-command.js';
import { evalCompareCommand } from './eval/eval-compare-command.js';
import { evalsCommand } from './evals/evals-command.js';
import { mcpCommand } from './mcp/mcp-command.js';
import { migrateCommand } from './migrate/migrate-command.js';
import { outboxReplayCommand, outboxStatusCommand } from './outbox/outbox-command.js';
import { projectsCommand } from './projects/projects-command.js';
import { retentionCommand } from './projects/retention-command.js';
import { serveCommand } from './serve/serve-command.js';
import { sessionsCommand } from './sessions/sessions-command.js';

/**
 * Every `weft` command, in help order. Each row declares its flags and how
 * they resolve; its implementation is imported only when it runs.
 */
export const commands: readonly CommandEntry[] = [
  serveCommand,
  migrateCommand,
  projectsCommand,
  retentionCommand,
  callsCommand,
  callsExportCommand,
  callsDeleteCommand,
  callCommand,
  sessionsCommand,
  datasetsCommand,
  evalsCommand,
  evalCompareCommand,
  mcpCommand,
  outboxStatusCommand,
  outboxReplayCommand,
];

/** Help lines of the words that group commands (`weft eval compare`). */
export const commandGroups: Readonly<Record<string, string>> = {
  eval: 'Evaluation runs recorded on the server (compare)',
  outbox: 'The durable outbox of records not yet sent (status, replay)',
};

export type { CallOptions } from './call/call-command.js';
export type { CallsOptions } from './calls/calls-command.js';
export type { DatasetsOptions } from './datasets/datasets-command.js';
export type { EvalsOptions } from './evals/evals-command.js';
export type { McpOptions } from './mcp/mcp-command.js';
export type { MigrateOptions } from './migrate/migrate-command.js';
export type { ProjectsOptions } from './projects/projects-command.js';
export type { SessionsOptions } from './sessions/sessions-command.js';
export type { CommandEntry, CommandRun, CommandSpec, ResolvedCommand } from './define-command.js';
export { defineCommand } from './define-command.js';
export type { EvalCompareOptions } from './eval/eval-compare-command.js';
export type { OutboxReplayOptions, OutboxStatusOptions } from './outbox/outbox-command.js';
export type { ServeOptions } from './serve/serve-command.js';

import { defineCommand } from '../define-command.js';
import { parsePositiveInt } from '../flag-values.js';
import { addOutputFlags, type OutputFlags, resolveOutput } from '../output-format.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { EvalsOptions } from './evals-options.js';

export const DEFAULT_EVALS_LIMIT = 50;

export const evalsCommand = defineCommand<EvalsOptions, ServerFlags & OutputFlags & { limit: number }>({
  path: ['evals'],
  summary: 'List the evaluation runs of a project, newest first (compare two with `weft eval compare`)',
  configure(command) {
    addServerFlags(command).option(
      '--limit <n>',
      `most runs to print (default: ${DEFAULT_EVALS_LIMIT})`,
      parsePositiveInt,
    );
    addOutputFlags(command, { tabular: true });
  },
  resolve(_args, flags, env) {
    return {
      ...resolveServerFlags(flags, env),
      limit: flags.limit ?? DEFAULT_EVALS_LIMIT,
      format: resolveOutput(flags),
    };
  },
  load: async () => (await import('./evals.js')).evals,
});

export type { EvalsOptions } from './evals-options.js';

import { defineCommand } from '../define-command.js';
import { parseCallId, parsePositiveInt } from '../flag-values.js';
import { addOutputFlags, type OutputFlags, resolveOutput } from '../output-format.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import { addCallFilterFlags } from './call-filter-flags.js';
import { parseSort } from './call-filter-values.js';
import { type CallFilterFlags, callFiltersOf } from './call-filters-of.js';
import type { CallsOptions } from './calls-options.js';

interface CallsFlags extends ServerFlags, OutputFlags, CallFilterFlags {
  trace: string;
  sort: ReturnType<typeof parseSort>;
  limit: number;
}

export const DEFAULT_CALLS_LIMIT = 50;

export const callsCommand = defineCommand<CallsOptions, CallsFlags>({
  path: ['calls'],
  summary: 'List calls of a project with filters, or one trace as a tree',
  configure(command) {
    // `weft calls export|delete` take flags of the same names: this command's
    // flags are read only before a subcommand's word, never after it.
    command.enablePositionalOptions();
    addServerFlags(command).option('--trace <id>', 'only this trace, shown as a tree', parseCallId);
    addCallFilterFlags(command, [
      'op',
      'status',
      'text',
      'attr',
      'session',
      'user',
      'tag',
      'feedback',
      'since',
      'until',
      'roots',
    ])
      .option(
        '--sort <field[:dir]>',
        'started, latency or op, with :asc or :desc (default: started:desc)',
        parseSort,
      )
      .option('--limit <n>', `most calls to print (default: ${DEFAULT_CALLS_LIMIT})`, parsePositiveInt);
    addOutputFlags(command, { tabular: true });
  },
  resolve(_args, flags, env) {
    const filters = callFiltersOf(flags);
    return {
      ...resolveServerFlags(flags, env),
      traceId: flags.trace,
      filters,
      sort: flags.sort,
      limit: flags.limit ?? DEFAULT_CALLS_LIMIT,
      format: resolveOutput(flags),
    };
  },
  load: async () => (await import('./calls.js')).calls,
});

export type { CallsOptions } from './calls-options.js';

import { defineCommand } from '../define-command.js';
import { parseCallId, parseNonEmpty, parsePositiveInt } from '../flag-values.js';
import { addOutputFlags, type OutputFlags, resolveOutput } from '../output-format.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import {
  collect,
  parseFeedbackFilter,
  parseKeyValue,
  parseSort,
  parseStatus,
  parseTimePoint,
} from './call-filter-values.js';
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
    addServerFlags(command)
      .option('--trace <id>', 'only this trace, shown as a tree', parseCallId)
      .option('--op <name>', 'only calls of this op (repeat for several)', collect(parseNonEmpty))
      .option('--status <status>', 'success, error or running (repeat for several)', collect(parseStatus))
      .option(
        '--text <words>',
        'full-text search over names, inputs and outputs (every word must occur)',
        parseNonEmpty,
      )
      .option(
        '--attr <key=value>',
        'attribute equals value; true/false and numbers are typed, "quote" for text (repeatable)',
        collect(parseKeyValue),
      )
      .option('--session <id>', 'only calls of this session', parseNonEmpty)
      .option('--user <id>', "only calls whose 'user.id' attribute is this", parseNonEmpty)
      .option('--tag <tag>', 'only calls tagged so (repeat: every tag)', collect(parseNonEmpty))
      .option(
        '--feedback <name[=value]>',
        'only calls with feedback of this name (and value)',
        parseFeedbackFilter,
      )
      .option(
        '--since <time>',
        'started at or after: ISO time, epoch ms, or a duration ago (30m, 6h, 7d)',
        parseTimePoint,
      )
      .option('--until <time>', 'started before (same forms as --since)', parseTimePoint)
      .option('--roots', 'only root calls (one per trace)')
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

import type { CallStatus } from '@weft/protocol';
import { Option } from 'commander';
import { defineCommand } from '../define-command.js';
import { parseCallId, parseNonEmpty, parsePositiveInt } from '../flag-values.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { CallsOptions } from './calls-options.js';

interface CallsFlags extends ServerFlags {
  trace: string;
  op: string;
  status: CallStatus;
  limit: number;
  json: boolean;
}

export const DEFAULT_CALLS_LIMIT = 50;

export const callsCommand = defineCommand<CallsOptions, CallsFlags>({
  path: ['calls'],
  summary: 'List recent calls of a project, or one trace as a tree',
  configure(command) {
    addServerFlags(command)
      .option('--trace <id>', 'only this trace, shown as a tree', parseCallId)
      .option('--op <name>', 'only calls of this op', parseNonEmpty)
      .addOption(
        new Option('--status <status>', 'only calls in this state').choices(['success', 'error', 'running']),
      )
      .option('--limit <n>', `most calls to print (default: ${DEFAULT_CALLS_LIMIT})`, parsePositiveInt)
      .option('--json', 'print the calls as JSON instead of a table');
  },
  resolve(_args, flags, env) {
    return {
      ...resolveServerFlags(flags, env),
      traceId: flags.trace,
      opName: flags.op,
      status: flags.status,
      limit: flags.limit ?? DEFAULT_CALLS_LIMIT,
      json: flags.json === true,
    };
  },
  load: async () => (await import('./calls.js')).calls,
});

export type { CallsOptions } from './calls-options.js';

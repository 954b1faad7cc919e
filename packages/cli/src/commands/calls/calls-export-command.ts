import { Option } from 'commander';
import { defineCommand } from '../define-command.js';
import { parseNonEmpty } from '../flag-values.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import { UsageError } from '../../errors/index.js';
import { addCallFilterFlags } from './call-filter-flags.js';
import { type CallFilterFlags, callFiltersOf } from './call-filters-of.js';
import type { CallsExportOptions } from './calls-export-options.js';

interface CallsExportFlags
  extends ServerFlags,
    Pick<CallFilterFlags, 'op' | 'text' | 'user' | 'session' | 'attr' | 'since' | 'until' | 'roots'> {
  format: 'jsonl' | 'parquet';
  values: 'resolved' | 'digests';
  out: string;
}

export const callsExportCommand = defineCommand<CallsExportOptions, CallsExportFlags>({
  path: ['calls', 'export'],
  summary: 'Export the calls of a query as JSON Lines or Parquet, streamed',
  configure(command) {
    addServerFlags(command);
    addCallFilterFlags(command, ['op', 'text', 'attr', 'session', 'user', 'since', 'until', 'roots'])
      .addOption(
        new Option('--format <format>', 'jsonl or parquet (default: jsonl)').choices(['jsonl', 'parquet']),
      )
      .addOption(
        new Option(
          '--values <how>',
          'deduplicated values resolved or left as digests (default: resolved)',
        ).choices(['resolved', 'digests']),
      )
      .option(
        '--out <file>',
        'write to this file (default: standard output, JSON Lines only)',
        parseNonEmpty,
      );
  },
  resolve(_args, flags, env) {
    const format = flags.format ?? 'jsonl';
    if (format === 'parquet' && flags.out === undefined) {
      throw new UsageError('Parquet is binary: pass --out <file> to write it.');
    }
    const filters = callFiltersOf(flags);
    return {
      ...resolveServerFlags(flags, env),
      filters,
      format,
      values: flags.values ?? 'resolved',
      out: flags.out,
    };
  },
  load: async () => (await import('./calls-export.js')).callsExport,
});

export type { CallsExportOptions } from './calls-export-options.js';

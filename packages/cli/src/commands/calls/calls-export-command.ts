import { Option } from 'commander';
import { defineCommand } from '../define-command.js';
import { parseNonEmpty } from '../flag-values.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import { UsageError } from '../../errors/index.js';
import { collect, parseKeyValue, parseTimePoint } from './call-filter-values.js';
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
    addServerFlags(command)
      .option('--op <name>', 'only calls of this op (repeat for several)', collect(parseNonEmpty))
      .option('--text <words>', 'full-text search (every word must occur)', parseNonEmpty)
      .option('--user <id>', "only calls whose 'user.id' attribute is this", parseNonEmpty)
      .option('--session <id>', 'only calls of this session', parseNonEmpty)
      .option('--attr <key=value>', 'attribute equals value (repeatable)', collect(parseKeyValue))
      .option(
        '--since <time>',
        'started at or after: ISO time, epoch ms, or a duration ago (7d)',
        parseTimePoint,
      )
      .option('--until <time>', 'started before (same forms as --since)', parseTimePoint)
      .option('--roots', 'only root calls (one per trace)')
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

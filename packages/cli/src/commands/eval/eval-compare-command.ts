import { defineCommand } from '../define-command.js';
import { parseCallId } from '../flag-values.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { EvalCompareOptions } from './eval-compare-options.js';

interface EvalCompareFlags extends ServerFlags {
  lowerIsBetter: string;
  json: boolean;
}

export const evalCompareCommand = defineCommand<EvalCompareOptions, EvalCompareFlags>({
  path: ['eval', 'compare'],
  summary: 'Compare two evaluation runs row by row (B against A)',
  configure(command) {
    command
      .argument('<runA>', 'baseline run: the id of its Evaluation.evaluate call', parseCallId)
      .argument('<runB>', 'run to compare with the baseline', parseCallId);
    addServerFlags(command)
      .option(
        '--lower-is-better <scores>',
        'comma-separated scores where smaller is better, e.g. cost,latency',
      )
      .option('--json', 'print the comparison as JSON instead of tables');
  },
  resolve([runA, runB], flags, env) {
    return {
      ...resolveServerFlags(flags, env),
      // commander enforces both arguments before resolve runs.
      runA: runA!,
      runB: runB!,
      lowerIsBetter: (flags.lowerIsBetter ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
      json: flags.json === true,
    };
  },
  load: async () => (await import('./eval-compare.js')).evalCompare,
});

export type { EvalCompareOptions } from './eval-compare-options.js';

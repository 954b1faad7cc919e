import { compareRuns, loadRun } from '@weft/sdk/eval';
import type { CliIo } from '../../io/index.js';
import { ExitCode } from '../../exit/index.js';
import { formatComparisonTables } from './comparison-table.js';
import type { EvalCompareOptions } from './eval-compare-options.js';

/**
 * `weft eval compare <runA> <runB>`: reads both runs back from the server
 * (the SDK's `loadRun`) and prints its paired comparison (`compareRuns`):
 * the runs side by side, and per score the mean difference B − A with a 95%
 * interval and how many rows got better, worse or stayed the same.
 */
export async function evalCompare(options: EvalCompareOptions, io: CliIo): Promise<number> {
  const source = {
    url: options.url,
    project: options.project,
    ...(options.token ? { apiKey: options.token } : {}),
  };
  const [a, b] = await Promise.all([loadRun(source, options.runA), loadRun(source, options.runB)]);
  for (const [label, run] of [
    ['A', a],
    ['B', b],
  ] as const) {
    if (run.skipped.length > 0) {
      io.stderr.write(
        `weft: warning: run ${label} (${run.run.id}) has ${run.skipped.length} row call(s) without a row result; they are left out.\n`,
      );
    }
  }
  const comparison = compareRuns(a.results, b.results, { lowerIsBetter: options.lowerIsBetter });
  const runs = { a: { id: a.run.id, summary: a.summary }, b: { id: b.run.id, summary: b.summary } };
  io.stdout.write(
    options.json
      ? `${JSON.stringify({ ...runs, comparison }, null, 2)}\n`
      : `${formatComparisonTables(comparison, runs)}\n`,
  );
  return ExitCode.ok;
}

import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { compareRunIds, formatComparisonTables } from '../../run-comparison/index.js';
import type { EvalCompareOptions } from './eval-compare-options.js';

/**
 * `weft eval compare <runA> <runB>`: finds each run's project (run ids are
 * unique, so `--project` only narrows the search), reads both runs back and
 * prints their paired comparison: the runs side by side, per score the mean
 * difference B − A with a 95% interval and how many rows got better, worse
 * or stayed the same, then the rows that changed.
 */
export async function evalCompare(options: EvalCompareOptions, io: CliIo): Promise<number> {
  const compared = await compareRunIds(
    { url: options.url, token: options.token },
    {
      runA: options.runA,
      runB: options.runB,
      project: options.project,
      lowerIsBetter: options.lowerIsBetter,
    },
  );
  for (const [label, run] of [
    ['A', compared.a],
    ['B', compared.b],
  ] as const) {
    if (run.skippedRows > 0) {
      io.stderr.write(
        `weft: warning: run ${label} (${run.id}) has ${run.skippedRows} row call(s) without a row result; they are left out.\n`,
      );
    }
  }
  io.stdout.write(
    options.json
      ? `${JSON.stringify(compared, null, 2)}\n`
      : `${formatComparisonTables(compared.comparison, compared)}\n`,
  );
  return ExitCode.ok;
}

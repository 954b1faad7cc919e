import { z } from 'zod';
import { compareRunIds, formatComparisonTables } from '../../run-comparison/index.js';
import { defineTool } from '../define-tool.js';
import { callIdArg, projectArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

export const compareRunsTool = defineTool({
  name: 'compare_runs',
  description:
    'Compare two evaluation runs (ids of Evaluation.evaluate calls; search_calls with op "Evaluation.evaluate" lists them), B against A: both runs side by side, per score the mean difference with a 95% interval and how many rows got better or worse, and the rows that changed.',
  inputSchema: {
    run_a: callIdArg.describe('The baseline run'),
    run_b: callIdArg.describe('The run compared with it'),
    project: projectArg.describe('Where the runs are; default: found by id'),
    lower_is_better: z
      .array(z.string().min(1))
      .max(50)
      .optional()
      .describe('Scores where smaller is better (cost, latency)'),
    max_changed_rows: z.number().int().min(0).max(1_000).default(20),
  },
  async run(args, context) {
    const compared = await compareRunIds(context.target, {
      runA: args.run_a.toLowerCase(),
      runB: args.run_b.toLowerCase(),
      project: args.project,
      lowerIsBetter: args.lower_is_better ?? [],
    });
    return textResult(formatComparisonTables(compared.comparison, compared, args.max_changed_rows));
  },
});

import type { EvaluationSummary } from '@weft/protocol';
import { changedRowCells, type compareRuns } from '@weft/sdk/eval';
import { formatPlainTable } from '../render/index.js';
import type { RunFacts } from './run-facts.js';

type RunComparison = ReturnType<typeof compareRuns>;

/** Column titles of the per-score comparison. */
export const SCORE_COLUMNS = [
  'score',
  'pairs',
  'mean A',
  'mean B',
  'B − A',
  '95% CI',
  'better',
  'worse',
  'same',
];

/** Column titles of the changed rows (as the library's `formatComparison` lists them). */
export const CHANGED_COLUMNS = ['row', 'trial', 'changes'];

/** Changed rows listed before "… and N more" (the library's default too). */
export const DEFAULT_MAX_CHANGED_ROWS = 20;

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n).toFixed(3)}`;

/** One row per score: means, the paired difference with its interval, and how many pairs moved. */
export function scoreRows(comparison: RunComparison): string[][] {
  return comparison.scores.map((s) => [
    s.score,
    String(s.pairs),
    s.meanA.toFixed(3),
    s.meanB.toFixed(3),
    signed(s.meanDifference),
    s.ci95 ? `[${signed(s.ci95.low)}, ${signed(s.ci95.high)}]` : '-',
    String(s.improved),
    String(s.regressed),
    String(s.unchanged),
  ]);
}

/**
 * The two runs side by side, the per-score comparison, how the rows paired
 * up, then the rows whose scores or errors changed (the first
 * `maxChangedRows`, then "… and N more").
 */
export function formatComparisonTables(
  comparison: RunComparison,
  runs: { a: RunFacts; b: RunFacts },
  maxChangedRows = DEFAULT_MAX_CHANGED_ROWS,
): string {
  const fact = (pick: (r: RunFacts) => string | undefined) => [pick(runs.a) ?? '-', pick(runs.b) ?? '-'];
  const summed = (pick: (s: EvaluationSummary) => string) => (r: RunFacts) =>
    r.summary ? pick(r.summary) : undefined;
  const side = formatPlainTable(
    ['', 'A', 'B'],
    [
      ['run', runs.a.id, runs.b.id],
      [
        'status',
        ...fact((r) => (r.status === 'error' ? 'error (no summary: interrupted or failed)' : r.status)),
      ],
      ['evaluation', ...fact((r) => r.evaluation)],
      ['model', ...fact((r) => r.model)],
      ['completed', ...fact(summed((s) => `${s.completed}/${s.rows * s.trials}`))],
      ['errors', ...fact(summed((s) => String(s.errors)))],
      ['latency p50', ...fact(summed((s) => `${s.latencyMs.p50.toFixed(1)} ms`))],
    ],
    { rule: false },
  );
  const pairing =
    `${comparison.shared} row(s) in both runs, paired by ${comparison.pairedBy === 'rowDigest' ? 'content' : 'position'}` +
    `; ${comparison.onlyInA} only in A, ${comparison.onlyInB} only in B; ${comparison.changed.length} changed.`;
  const parts = [
    side,
    '',
    formatPlainTable(SCORE_COLUMNS, scoreRows(comparison), { rule: false }),
    '',
    pairing,
  ];
  if (comparison.changed.length > 0) {
    const shown = comparison.changed.slice(0, maxChangedRows);
    parts.push(
      '',
      formatPlainTable(
        CHANGED_COLUMNS,
        shown.map((c) => changedRowCells(c)),
        { rule: false },
      ),
    );
    if (comparison.changed.length > shown.length) {
      parts.push(`… and ${comparison.changed.length - shown.length} more (--json lists every one)`);
    }
  }
  return parts.join('\n');
}

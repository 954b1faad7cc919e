import type { EvaluationSummary } from '@weft/protocol';
import Table from 'cli-table3';
import type { compareRuns } from '@weft/sdk/eval';
import { PLAIN_TABLE } from '../plain-table.js';

type RunComparison = ReturnType<typeof compareRuns>;

/** A run as the tables show it. */
export interface ComparedRun {
  id: string;
  /** Absent while the run is still going, or when it failed. */
  summary: EvaluationSummary | undefined;
}

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

/** The two runs side by side, then the per-score comparison, then how the rows paired up. */
export function formatComparisonTables(
  comparison: RunComparison,
  runs: { a: ComparedRun; b: ComparedRun },
): string {
  const side = new Table(PLAIN_TABLE);
  const fact = (pick: (s: EvaluationSummary) => string) => [
    runs.a.summary ? pick(runs.a.summary) : '-',
    runs.b.summary ? pick(runs.b.summary) : '-',
  ];
  side.push(
    ['', 'A', 'B'],
    ['run', runs.a.id, runs.b.id],
    ['evaluation', ...fact((s) => s.evaluation)],
    ['model', ...fact((s) => s.model)],
    ['completed', ...fact((s) => `${s.completed}/${s.rows * s.trials}`)],
    ['errors', ...fact((s) => String(s.errors))],
    ['latency p50', ...fact((s) => `${s.latencyMs.p50.toFixed(1)} ms`)],
  );
  const scores = new Table(PLAIN_TABLE);
  scores.push(SCORE_COLUMNS, ...scoreRows(comparison));
  const pairing =
    `${comparison.shared} row(s) in both runs, paired by ${comparison.pairedBy === 'rowDigest' ? 'content' : 'position'}` +
    `; ${comparison.onlyInA} only in A, ${comparison.onlyInB} only in B; ${comparison.changed.length} changed.`;
  const trim = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
  return [trim(side.toString()), '', trim(scores.toString()), '', pairing].join('\n');
}

import type { EvaluationSummary, ScorerSummary } from '@weft/protocol';
import Table from 'cli-table3';
import type { ChangedRow, RunComparison } from './compare.js';
import { formatNumber, formatPercent, PLAIN_TABLE_STYLE } from './format-summary.js';

/** Options of {@link formatComparison}. */
export interface FormatComparisonOptions {
  /** The runs' summaries, for the side-by-side table (omitted when not given). */
  summaries?: { a: EvaluationSummary; b: EvaluationSummary };
  /** Column labels of the two runs. @default ['A', 'B'] */
  labels?: [string, string];
  /** Changed rows listed before "… and N more". @default 20 */
  maxChangedRows?: number;
}

/**
 * Renders a comparison as text: the two summaries side by side (when given),
 * the paired comparison per score (mean difference B − A, 95% CI, improved /
 * regressed / unchanged), then the rows whose scores changed.
 */
export function formatComparison(comparison: RunComparison, options: FormatComparisonOptions = {}): string {
  const [la, lb] = options.labels ?? ['A', 'B'];
  const maxChanged = options.maxChangedRows ?? 20;
  const parts: string[] = [];

  if (options.summaries) {
    const { a, b } = options.summaries;
    const side = new Table({ head: ['', la, lb], style: PLAIN_TABLE_STYLE });
    side.push(
      ['model', a.model, b.model],
      ['completed', `${a.completed}/${a.rows * a.trials}`, `${b.completed}/${b.rows * b.trials}`],
      ['errors', String(a.errors), String(b.errors)],
      ['latency p50', `${a.latencyMs.p50.toFixed(1)} ms`, `${b.latencyMs.p50.toFixed(1)} ms`],
      ['latency p95', `${a.latencyMs.p95.toFixed(1)} ms`, `${b.latencyMs.p95.toFixed(1)} ms`],
    );
    for (const name of [...new Set([...Object.keys(a.scores), ...Object.keys(b.scores)])].sort()) {
      const ha = headline(a.scores[name]);
      const hb = headline(b.scores[name]);
      for (const key of [...new Set([...Object.keys(ha), ...Object.keys(hb)])]) {
        side.push([key === '' ? name : `${name}.${key}`, ha[key] ?? '', hb[key] ?? '']);
      }
    }
    parts.push(side.toString());
  }

  const paired = new Table({
    head: [
      'score',
      'pairs',
      `mean ${la}`,
      `mean ${lb}`,
      `Δ ${lb}−${la}`,
      '95% CI',
      'improved',
      'regressed',
      'same',
    ],
    style: PLAIN_TABLE_STYLE,
  });
  for (const s of comparison.scores) {
    paired.push([
      s.score,
      String(s.pairs),
      formatNumber(s.meanA),
      formatNumber(s.meanB),
      signed(s.meanDifference),
      s.ci95 ? `[${signed(s.ci95.low)}, ${signed(s.ci95.high)}]` : 'n/a',
      String(s.improved),
      String(s.regressed),
      String(s.unchanged),
    ]);
  }
  parts.push(
    `${comparison.shared} shared rows (paired by ${comparison.pairedBy}); only in ${la}: ${comparison.onlyInA}, only in ${lb}: ${comparison.onlyInB}`,
    paired.toString(),
  );

  if (comparison.changed.length > 0) {
    const rows = new Table({ head: ['row', 'trial', 'changes'], style: PLAIN_TABLE_STYLE });
    for (const c of comparison.changed.slice(0, maxChanged)) {
      rows.push(changedRowCells(c, [la, lb]));
    }
    parts.push(`${comparison.changed.length} changed row(s)`, rows.toString());
    if (comparison.changed.length > maxChanged)
      parts.push(`… and ${comparison.changed.length - maxChanged} more`);
  } else {
    parts.push('no row changed');
  }
  return parts.join('\n');
}

/**
 * A changed row as the cells of the changed-rows table: the row (`3`, or
 * `3→5` when paired by content across a reordered dataset), the trial, and
 * what changed (`exact: false → true, error in B`).
 */
export function changedRowCells(change: ChangedRow, [la, lb]: [string, string] = ['A', 'B']): string[] {
  const changes = [...new Set([...Object.keys(change.a), ...Object.keys(change.b)])]
    .sort()
    .filter((k) => change.a[k] !== change.b[k])
    .map((k) => `${k}: ${show(change.a[k])} → ${show(change.b[k])}`);
  if (change.errorA !== change.errorB) changes.push(change.errorB ? `error in ${lb}` : `error in ${la} only`);
  return [
    change.rowIndexA === change.rowIndexB
      ? String(change.rowIndexA)
      : `${change.rowIndexA}→${change.rowIndexB}`,
    String(change.trial),
    changes.join(', '),
  ];
}

/** Headline figure per key ('' for a plain scorer). */
function headline(summary: ScorerSummary | undefined): Record<string, string> {
  if (summary === undefined) return {};
  const one = (s: Exclude<ScorerSummary, { kind: 'object' }>) =>
    s.kind === 'number' ? `${formatNumber(s.mean)} ± ${formatNumber(s.stddev)}` : formatPercent(s.passRate);
  if (summary.kind !== 'object') return { '': one(summary) };
  return Object.fromEntries(Object.entries(summary.keys).map(([k, s]) => [k, one(s)]));
}

function signed(value: number): string {
  return `${value > 0 ? '+' : ''}${formatNumber(value)}`;
}

function show(value: number | boolean | undefined): string {
  return value === undefined ? '–' : String(value);
}

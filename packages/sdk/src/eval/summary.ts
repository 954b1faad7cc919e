import type { EvaluationSummary, ModelUsage, ScorerSummary, ScoreStats, ScoreValue } from '@weft/protocol';
import { addUsage } from '../calls/index.js';
import type { RowResult } from './row-result.js';
import { mean, quantile, sampleStddev, sampleVariance } from './stats.js';

/** What {@link summarize} needs besides the results. */
export interface SummaryContext {
  evaluation: string;
  model: string;
  /** Rows in the dataset. */
  rows: number;
  trials: number;
}

/**
 * The summary of a run's row results:
 * - per scorer: mean and sample stddev of numbers; pass count and rate of
 *   booleans; per key for object scores (a scorer mixing numbers and
 *   booleans is summarized as numbers, `true` = 1);
 * - latency p50 / p95 of the rows (linear interpolation, see {@link quantile});
 * - token usage summed per model over the rows' `usage`;
 * - `errors`: results with an `error`; `completed`: results recorded;
 * - with `trials > 1`, `rowVariance`: per score, the mean over rows of the
 *   sample variance of that row's trials (object scores as `scorer.key`).
 *
 * Results are ordered by (rowIndex, trial) first, so the same results give
 * the same summary to the last bit whatever order rows finished in — a
 * resumed run equals an uninterrupted one.
 */
export function summarize(context: SummaryContext, results: readonly RowResult[]): EvaluationSummary {
  const ordered = [...results].sort((a, b) => a.rowIndex - b.rowIndex || a.trial - b.trial);
  const byScorer = new Map<string, ScoreValue[]>();
  let errors = 0;
  let usage: Record<string, ModelUsage> | undefined;
  for (const result of ordered) {
    if (result.error !== undefined) errors++;
    for (const [name, value] of Object.entries(result.scores)) pushTo(byScorer, name, value);
    if (result.usage !== undefined) usage = addUsage(usage, result.usage);
  }
  const scores: Record<string, ScorerSummary> = {};
  for (const name of [...byScorer.keys()].sort()) scores[name] = scorerSummary(byScorer.get(name) ?? []);
  const latencies = ordered.map((r) => r.latencyMs);
  const summary: EvaluationSummary = {
    evaluation: context.evaluation,
    model: context.model,
    rows: context.rows,
    trials: context.trials,
    completed: ordered.length,
    errors,
    scores,
    latencyMs: { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) },
  };
  if (usage !== undefined) summary.usage = usage;
  if (context.trials > 1) summary.rowVariance = rowVariance(ordered);
  return summary;
}

function scorerSummary(values: readonly ScoreValue[]): ScorerSummary {
  if (!values.some((v) => typeof v === 'object')) return scalarStats(values as (number | boolean)[]);
  // Object scores: one stats entry per key; a plain value among them counts as key `value`.
  const byKey = new Map<string, (number | boolean)[]>();
  for (const value of values) {
    const entries = typeof value === 'object' ? Object.entries(value) : [['value', value] as const];
    for (const [key, v] of entries) pushTo(byKey, key, v);
  }
  const keys: Record<string, ScoreStats> = {};
  for (const key of [...byKey.keys()].sort()) keys[key] = scalarStats(byKey.get(key) ?? []);
  return { kind: 'object', keys };
}

function scalarStats(values: readonly (number | boolean)[]): ScoreStats {
  if (values.length > 0 && values.every((v) => typeof v === 'boolean')) {
    const passed = values.filter((v) => v).length;
    return { kind: 'boolean', count: values.length, passed, passRate: passed / values.length };
  }
  const numbers = values.map(Number);
  return { kind: 'number', count: numbers.length, mean: mean(numbers), stddev: sampleStddev(numbers) };
}

/** Per score key, the mean over rows (with ≥ 2 trials scored) of the variance across that row's trials. */
function rowVariance(ordered: readonly RowResult[]): Record<string, number> {
  // key → rowIndex → values across trials
  const perKey = new Map<string, Map<number, number[]>>();
  const add = (key: string, rowIndex: number, value: number | boolean) => {
    let rows = perKey.get(key);
    if (rows === undefined) {
      rows = new Map();
      perKey.set(key, rows);
    }
    pushTo(rows, rowIndex, Number(value));
  };
  for (const result of ordered) {
    for (const [name, value] of Object.entries(result.scores)) {
      if (typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) add(`${name}.${key}`, result.rowIndex, v);
      } else {
        add(name, result.rowIndex, value);
      }
    }
  }
  const out: Record<string, number> = {};
  for (const key of [...perKey.keys()].sort()) {
    const variances = [...(perKey.get(key)?.values() ?? [])].filter((v) => v.length >= 2).map(sampleVariance);
    if (variances.length > 0) out[key] = mean(variances);
  }
  return out;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

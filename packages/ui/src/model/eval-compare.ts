import type { Call, EvaluationRowResult, EvaluationSummary, ScoreStats, ScoreValue } from '../api/index.js';

/** One number of a run's summary in both runs. */
export interface SummaryDelta {
  /** `scorer`, `scorer.key`, or a run metric such as `latency p50`. */
  name: string;
  metric: 'mean' | 'pass rate' | 'ms' | 'count';
  a: number | undefined;
  b: number | undefined;
  /** b − a when both exist. */
  delta: number | undefined;
  /** Whether a larger value is better (latency and errors: no). */
  higherIsBetter: boolean;
}

/** A dataset row (and trial) as run by both evaluations. */
export interface RowComparison {
  key: string;
  rowIndex: number;
  trial: number;
  a: { call: Call; result: EvaluationRowResult } | undefined;
  b: { call: Call; result: EvaluationRowResult } | undefined;
  /** Scores (flattened names) whose values differ, or that one side lacks. */
  changed: string[];
}

function statValue(stats: ScoreStats): { value: number; metric: 'mean' | 'pass rate' } {
  return stats.kind === 'number'
    ? { value: stats.mean, metric: 'mean' }
    : { value: stats.passRate, metric: 'pass rate' };
}

function summaryNumbers(
  summary: EvaluationSummary | undefined,
): Map<string, { value: number; metric: SummaryDelta['metric'] }> {
  const out = new Map<string, { value: number; metric: SummaryDelta['metric'] }>();
  if (summary === undefined) return out;
  for (const [scorer, s] of Object.entries(summary.scores ?? {})) {
    if (s.kind === 'object') {
      for (const [key, stats] of Object.entries(s.keys)) out.set(`${scorer}.${key}`, statValue(stats));
    } else out.set(scorer, statValue(s));
  }
  out.set('errors', { value: summary.errors, metric: 'count' });
  if (summary.latencyMs) {
    out.set('latency p50', { value: summary.latencyMs.p50, metric: 'ms' });
    out.set('latency p95', { value: summary.latencyMs.p95, metric: 'ms' });
  }
  return out;
}

/** Per scorer (and run metric): the value in each run and the change. */
export function summaryDeltas(
  a: EvaluationSummary | undefined,
  b: EvaluationSummary | undefined,
): SummaryDelta[] {
  const left = summaryNumbers(a);
  const right = summaryNumbers(b);
  const names = [...new Set([...left.keys(), ...right.keys()])];
  return names.map((name) => {
    const l = left.get(name);
    const r = right.get(name);
    return {
      name,
      metric: (l ?? r)!.metric,
      a: l?.value,
      b: r?.value,
      delta: l !== undefined && r !== undefined ? r.value - l.value : undefined,
      higherIsBetter: !(name === 'errors' || name.startsWith('latency')),
    };
  });
}

/** Scores flattened to `scorer` or `scorer.key` → number | boolean. */
export function flattenScores(scores: Record<string, ScoreValue>): Map<string, number | boolean> {
  const out = new Map<string, number | boolean>();
  for (const [name, value] of Object.entries(scores)) {
    if (typeof value === 'object') for (const [k, v] of Object.entries(value)) out.set(`${name}.${k}`, v);
    else out.set(name, value);
  }
  return out;
}

/** Reads a row call's output as an evaluation row result, or undefined when it is not one. */
export function rowResult(call: Call): EvaluationRowResult | undefined {
  const out = call.output as Partial<EvaluationRowResult> | null | undefined;
  if (typeof out !== 'object' || out === null || typeof out.rowIndex !== 'number') return undefined;
  return { ...out, trial: out.trial ?? 0, scores: out.scores ?? {} } as EvaluationRowResult;
}

/**
 * Pairs the rows of two runs: by row digest when both recorded it (robust to
 * a reordered dataset), else by row index; and by trial. Rows present on one
 * side only count as changed.
 */
export function compareRows(aCalls: readonly Call[], bCalls: readonly Call[]): RowComparison[] {
  const byKey = new Map<string, RowComparison>();
  const keyOf = (r: EvaluationRowResult) => `${r.rowDigest ?? `#${r.rowIndex}`}/${r.trial}`;
  const add = (calls: readonly Call[], side: 'a' | 'b') => {
    for (const call of calls) {
      const result = rowResult(call);
      if (result === undefined) continue;
      const key = keyOf(result);
      let entry = byKey.get(key);
      if (entry === undefined) {
        entry = {
          key,
          rowIndex: result.rowIndex,
          trial: result.trial,
          a: undefined,
          b: undefined,
          changed: [],
        };
        byKey.set(key, entry);
      }
      entry[side] = { call, result };
    }
  };
  add(aCalls, 'a');
  add(bCalls, 'b');
  for (const entry of byKey.values()) {
    const left = entry.a ? flattenScores(entry.a.result.scores) : new Map<string, number | boolean>();
    const right = entry.b ? flattenScores(entry.b.result.scores) : new Map<string, number | boolean>();
    for (const name of new Set([...left.keys(), ...right.keys()])) {
      if (!entry.a || !entry.b || left.get(name) !== right.get(name)) entry.changed.push(name);
    }
    if (
      (entry.a?.result.error === undefined) !== (entry.b?.result.error === undefined) &&
      entry.changed.length === 0
    ) {
      entry.changed.push('error');
    }
  }
  return [...byKey.values()].sort((x, y) => x.rowIndex - y.rowIndex || x.trial - y.trial);
}

/** Whether a changed row got better, worse, or both (one score up, another down), by its numbers and passes. */
export function rowDirection(row: RowComparison): 'better' | 'worse' | 'mixed' | 'same' {
  let up = 0;
  let down = 0;
  const a = row.a ? flattenScores(row.a.result.scores) : new Map<string, number | boolean>();
  const b = row.b ? flattenScores(row.b.result.scores) : new Map<string, number | boolean>();
  for (const name of row.changed) {
    const before = a.get(name);
    const after = b.get(name);
    const x = typeof before === 'boolean' ? Number(before) : before;
    const y = typeof after === 'boolean' ? Number(after) : after;
    if (x === undefined || y === undefined || x === y) continue;
    if (y > x) up++;
    else down++;
  }
  if (row.changed.includes('error') && up === 0 && down === 0) {
    return row.b?.result.error === undefined ? 'better' : 'worse';
  }
  return up > 0 && down > 0 ? 'mixed' : up > 0 ? 'better' : down > 0 ? 'worse' : 'same';
}

/** The expected answer of a row, when its dataset row names one (`expected`, `answer`, `label`, `target`, `reference`). */
export function expectedOf(call: Call | undefined): unknown {
  const inputs = (call?.inputs ?? {}) as Record<string, unknown>;
  const row = (inputs.row ?? inputs.example ?? inputs) as Record<string, unknown> | undefined;
  if (row === undefined || typeof row !== 'object' || row === null) return undefined;
  for (const key of ['expected', 'answer', 'label', 'target', 'reference']) if (key in row) return row[key];
  return undefined;
}

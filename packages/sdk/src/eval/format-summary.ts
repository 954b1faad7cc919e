import type { EvaluationSummary, ScoreStats } from '@weft/protocol';
import Table from 'cli-table3';

/** Plain tables: no colour codes, so the text is the same in a file, a pipe or a test. */
export const PLAIN_TABLE_STYLE = { head: [] as string[], border: [] as string[] };

/**
 * Renders a summary as text: a header line, a table of scores (mean ±
 * stddev or pass rate, count, and row variance across trials when there are
 * trials), then latency, errors and token usage.
 */
export function formatSummary(summary: EvaluationSummary): string {
  const trials = summary.trials > 1;
  const head = ['score', 'n', 'mean / pass rate', 'stddev', ...(trials ? ['trial variance'] : [])];
  const table = new Table({ head, style: PLAIN_TABLE_STYLE });
  for (const [name, scorer] of Object.entries(summary.scores)) {
    const entries: [string, ScoreStats][] =
      scorer.kind === 'object'
        ? Object.entries(scorer.keys).map(([k, s]) => [`${name}.${k}`, s])
        : [[name, scorer]];
    for (const [label, stats] of entries) {
      const variance = summary.rowVariance?.[label];
      table.push([
        label,
        String(stats.count),
        stats.kind === 'number'
          ? formatNumber(stats.mean)
          : `${formatPercent(stats.passRate)} (${stats.passed})`,
        stats.kind === 'number' ? formatNumber(stats.stddev) : '',
        ...(trials ? [variance === undefined ? '' : formatNumber(variance)] : []),
      ]);
    }
  }
  const total = summary.rows * summary.trials;
  const lines = [
    `Evaluation ${summary.evaluation} · model ${summary.model} · ${summary.rows} rows` +
      (trials ? ` × ${summary.trials} trials` : ''),
    table.toString(),
    `completed ${summary.completed}/${total} · errors ${summary.errors} · latency p50 ${formatMs(summary.latencyMs.p50)} p95 ${formatMs(summary.latencyMs.p95)}`,
  ];
  for (const [model, u] of Object.entries(summary.usage ?? {})) {
    lines.push(
      `tokens ${model}: ${u.requests} requests, ${u.inputTokens} in, ${u.outputTokens} out, ${u.totalTokens} total`,
    );
  }
  return lines.join('\n');
}

export function formatNumber(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 1_000 || Math.abs(value) < 0.001 ? value.toExponential(3) : value.toFixed(4);
}

export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

function formatMs(ms: number): string {
  return ms >= 1_000 ? `${(ms / 1_000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

import { type CallFilter, formatUsd } from '../../api/index.js';
import { useApp, useLoad } from '../../hooks/index.js';
import { formatCount, formatDuration } from '../../model/index.js';

/** Longest range the metrics query takes (400 days); "any time" means that far back. */
const LONGEST_RANGE_MS = 400 * 86_400_000 - 60_000;

const MEASURES = ['count', 'errorRate', 'tokens.total', 'cost', 'latency.p50', 'latency.p95'] as const;

/**
 * Totals of every call the filters match, not only the page shown: count,
 * error rate, tokens, cost and latency percentiles, from the server's
 * metrics (rollups kept at ingest). `refreshKey` reloads them with the
 * table. Tokens and cost count each call's own and its descendants', so
 * over every call at any depth they count a nested call's tokens again in
 * its parents'; the Traces table (roots only) counts each once.
 */
export function CallTotals({
  filter,
  fromMs,
  toMs,
  refreshKey,
}: {
  filter: CallFilter;
  fromMs: number | undefined;
  /** End of an exact range (exclusive); now when absent. */
  toMs?: number | undefined;
  refreshKey: unknown;
}) {
  const { api, project } = useApp();
  const totals = useLoad(
    (signal) => {
      const to = toMs ?? Date.now() + 60_000;
      return api.queryMetrics(
        {
          project,
          from: fromMs ?? to - LONGEST_RANGE_MS,
          to,
          bucket: 'total',
          measures: [...MEASURES],
          filter,
        },
        signal,
      );
    },
    [project, JSON.stringify(filter), fromMs, toMs, refreshKey],
  );
  if (totals.error) return <p class="call-totals muted">Totals unavailable: {totals.error.message}</p>;
  const value = (measure: string) =>
    totals.data?.series.find((s) => s.measure === measure)?.values[0] ?? undefined;
  const count = value('count');
  const errorRate = value('errorRate');
  const p50 = value('latency.p50');
  const p95 = value('latency.p95');
  return (
    <p class="call-totals" aria-live="polite" aria-busy={totals.data === undefined}>
      {totals.data === undefined ? (
        <span class="muted">Totals…</span>
      ) : (
        <>
          <strong data-total="count">{formatCount(count ?? 0)}</strong> calls ·{' '}
          <span data-total="errors">
            {errorRate === undefined ? '—' : `${(errorRate * 100).toFixed(1)}%`}
          </span>{' '}
          errors · <span data-total="tokens">{formatCount(value('tokens.total') ?? 0)}</span> tokens ·{' '}
          <span data-total="cost">{formatUsd(value('cost')) || '—'}</span> · p50{' '}
          <span data-total="p50">{formatDuration(p50)}</span> · p95{' '}
          <span data-total="p95">{formatDuration(p95)}</span>
        </>
      )}
    </p>
  );
}

import { Fragment } from 'preact';
import type { Call } from '../../api/index.js';
import { formatUsd } from '../../api/index.js';
import { callLatencyMs, formatCount, formatDuration } from '../../model/index.js';

/**
 * A call's summary as facts rather than JSON: latency and time to first
 * token as durations (never `73.86611900000003`), usage per model as a
 * table, child counts. Keys it does not know are listed as given.
 */
export function SummaryFacts({ call }: { call: Call }) {
  const summary = call.summary ?? {};
  const {
    latencyMs: _l,
    status: _s,
    usage,
    costUsd: _c,
    timeToFirstTokenMs,
    childCounts,
    ...other
  } = summary;
  const models = Object.entries(usage ?? {});
  return (
    <div class="summary-facts">
      <dl class="facts">
        <dt>Latency</dt>
        <dd>{formatDuration(callLatencyMs(call))}</dd>
        {typeof timeToFirstTokenMs === 'number' && (
          <>
            <dt>First token</dt>
            <dd>{formatDuration(timeToFirstTokenMs)}</dd>
          </>
        )}
        {childCounts && (
          <>
            <dt>Children</dt>
            <dd>
              {formatCount(childCounts.success ?? 0)} succeeded, {formatCount(childCounts.error ?? 0)} failed
            </dd>
          </>
        )}
        {Object.entries(other).map(([key, value]) => (
          <Fragment key={key}>
            <dt>{key}</dt>
            <dd>
              {typeof value === 'number'
                ? formatCount(Math.round(value * 1000) / 1000)
                : JSON.stringify(value)}
            </dd>
          </Fragment>
        ))}
      </dl>
      {models.length > 0 && (
        <table class="data-table usage-table">
          <thead>
            <tr>
              <th>Model</th>
              <th class="col-num">Requests</th>
              <th class="col-num">Input</th>
              <th class="col-num">Cached</th>
              <th class="col-num">Output</th>
              <th class="col-num">Reasoning</th>
              <th class="col-num">Cost</th>
            </tr>
          </thead>
          <tbody>
            {models.map(([model, u]) => (
              <tr key={model} data-model={model}>
                <td>{model}</td>
                <td class="col-num">{formatCount(u.requests)}</td>
                <td class="col-num">{formatCount(u.inputTokens)}</td>
                <td class="col-num">{u.cachedInputTokens ? formatCount(u.cachedInputTokens) : ''}</td>
                <td class="col-num">{formatCount(u.outputTokens)}</td>
                <td class="col-num">{u.reasoningTokens ? formatCount(u.reasoningTokens) : ''}</td>
                <td class="col-num">{formatUsd(u.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

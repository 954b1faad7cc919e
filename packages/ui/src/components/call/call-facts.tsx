import { type Call, formatUsd } from '../../api/index.js';
import {
  callLatencyMs,
  costTitle,
  formatCount,
  formatDuration,
  formatTime,
  llmFacts,
  plainOpName,
} from '../../model/index.js';
import { href } from '../../router/index.js';
import { StatusBadge } from '../status-badge.js';

/**
 * The facts at the top of a call: op, status, latency; for a model call its
 * model and provider, tokens (input with cached, output with reasoning),
 * cost and time to first token; when it started, its session, call and
 * trace ids.
 */
export function CallFacts({ call, showTraceLink }: { call: Call; showTraceLink: boolean }) {
  const opName = plainOpName(call.opName);
  const llm = llmFacts(call);
  const tokens = llm.tokens;
  return (
    <dl class="facts">
      <dt>Op</dt>
      <dd title={call.opName}>{opName}</dd>
      <dt>Status</dt>
      <dd>
        <StatusBadge status={call.status} />
      </dd>
      {llm.models.length > 0 && (
        <>
          <dt>Model</dt>
          <dd class="call-model">
            {llm.models.join(', ')}
            {llm.provider && <span class="muted"> · {llm.provider}</span>}
          </dd>
        </>
      )}
      <dt>Latency</dt>
      <dd>{formatDuration(callLatencyMs(call))}</dd>
      {llm.timeToFirstTokenMs !== undefined && (
        <>
          <dt>First token</dt>
          <dd class="call-ttft">{formatDuration(llm.timeToFirstTokenMs)}</dd>
        </>
      )}
      <dt>Tokens</dt>
      <dd class="call-tokens">
        {tokens === undefined ? (
          '—'
        ) : (
          <>
            {formatCount(tokens.total)}{' '}
            <span class="muted">
              ({formatCount(tokens.input)} in
              {tokens.cached > 0 ? `, ${formatCount(tokens.cached)} cached` : ''} ·{' '}
              {formatCount(tokens.output)} out
              {tokens.reasoning > 0 ? `, ${formatCount(tokens.reasoning)} reasoning` : ''})
            </span>
          </>
        )}
      </dd>
      {llm.costUsd !== undefined && (
        <>
          <dt>Cost</dt>
          <dd class="call-cost" title={costTitle(llm.costUsd)}>
            {formatUsd(llm.costUsd)}
          </dd>
        </>
      )}
      <dt>Started</dt>
      <dd>{formatTime(call.startedAt)}</dd>
      {call.sessionId && (
        <>
          <dt>Session</dt>
          <dd>
            <a href={href(call.project, ['sessions', call.sessionId])}>{call.sessionId}</a>
          </dd>
        </>
      )}
      <dt>Call</dt>
      <dd>
        <a href={href(call.project, ['calls', call.id])}>
          <code>{call.id}</code>
        </a>
      </dd>
      {showTraceLink && (
        <>
          <dt>Trace</dt>
          <dd>
            <a href={href(call.project, ['trace', call.traceId], { call: call.id })}>
              <code>{call.traceId}</code>
            </a>
          </dd>
        </>
      )}
    </dl>
  );
}

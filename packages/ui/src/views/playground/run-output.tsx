import { formatUsd } from '../../api/index.js';
import { formatCount, formatDuration } from '../../model/index.js';
import { href } from '../../router/index.js';

/** What one variant's run has streamed so far, and how it ended. */
export interface RunState {
  status: 'idle' | 'running' | 'done' | 'error';
  text: string;
  toolCalls: { id?: string | undefined; name?: string | undefined; arguments: string }[];
  error?: string;
  callId?: string;
  project?: string;
  usage?: { inputTokens: number; outputTokens: number } | undefined;
  costUsd?: number | undefined;
  latencyMs?: number;
  timeToFirstTokenMs?: number | undefined;
}

export const IDLE: RunState = { status: 'idle', text: '', toolCalls: [] };

/** A variant's answer as it streams in, then its tokens, cost and timing, with a link to the traced call. */
export function RunOutput({ run }: { run: RunState }) {
  if (run.status === 'idle') return <p class="muted run-output">Not run yet.</p>;
  return (
    <div class={`run-output run-${run.status}`} aria-live="polite" aria-busy={run.status === 'running'}>
      {run.text !== '' && <div class="part-text run-text">{run.text}</div>}
      {run.toolCalls.map((c, i) => (
        <div key={i} class="tool-card tool-call" data-tool={c.name}>
          <strong class="tool-name">{c.name ?? '…'}</strong>{' '}
          {c.id && <code class="muted tool-id">{c.id}</code>}
          <div class="part-text tool-args">{c.arguments}</div>
        </div>
      ))}
      {run.status === 'running' && <p class="muted">Streaming…</p>}
      {run.status === 'error' && (
        <div class="error-box" role="alert">
          {run.error}
        </div>
      )}
      {(run.status === 'done' || run.status === 'error') && run.callId && run.project && (
        <p class="run-facts muted">
          {run.usage && (
            <>
              {formatCount(run.usage.inputTokens)} in · {formatCount(run.usage.outputTokens)} out ·{' '}
            </>
          )}
          {run.costUsd !== undefined && <>{formatUsd(run.costUsd)} · </>}
          {run.timeToFirstTokenMs !== undefined && (
            <>first token {formatDuration(run.timeToFirstTokenMs)} · </>
          )}
          {run.latencyMs !== undefined && <>{formatDuration(run.latencyMs)} · </>}
          <a class="run-call" href={href(run.project, ['calls', run.callId])}>
            traced call
          </a>
        </p>
      )}
    </div>
  );
}

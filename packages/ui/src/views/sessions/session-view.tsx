import { useApp, useLoad } from '../../hooks/index.js';
import { ErrorBox } from '../../components/index.js';
import { turnMessages, formatTime } from '../../model/index.js';
import { href } from '../../router/index.js';

/** One session as the conversation it was: its traces in order, each turn's messages as chat bubbles. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const { api, project } = useApp();
  const turns = useLoad(
    (signal) =>
      api.queryAllCalls(
        { project, sessionId, parentId: null, sort: { field: 'startedAt', direction: 'asc' } },
        signal,
      ),
    [project, sessionId],
  );
  return (
    <div class="view session-view">
      <div class="view-head">
        <h1>
          <a href={href(project, ['sessions'])}>Sessions</a> / {sessionId}
        </h1>
      </div>
      {turns.error && <ErrorBox error={turns.error} retry={turns.reload} />}
      <ol class="chat" aria-busy={turns.data === undefined}>
        {(turns.data ?? []).map((call, i) => (
          <li key={call.id} class="chat-turn" data-call-id={call.id}>
            <div class="chat-turn-head muted">
              Turn {i + 1} · {formatTime(call.startedAt)} ·{' '}
              <a href={href(project, ['trace', call.traceId], { call: call.id })}>open trace</a>
            </div>
            {turnMessages(call).map((m, j) => (
              <div key={j} class={`chat-message chat-${m.role}`} data-role={m.role}>
                <span class="chat-role">{m.role}</span>
                <div class="chat-text">{m.text}</div>
              </div>
            ))}
          </li>
        ))}
      </ol>
    </div>
  );
}

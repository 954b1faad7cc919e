import { useApp, useLoad } from '../../hooks/index.js';
import { ErrorBox, MessageList } from '../../components/index.js';
import { turnMessages, formatTime } from '../../model/index.js';
import { href } from '../../router/index.js';

/**
 * One session as the conversation it was: its traces in order, each turn's
 * messages rendered as the call view renders messages (tool calls, images,
 * long texts cut with _Show all_).
 */
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
            <MessageList messages={turnMessages(call)} label={`Turn ${i + 1}`} />
            {call.endedAt === null && <p class="muted">Waiting for the reply…</p>}
          </li>
        ))}
      </ol>
    </div>
  );
}

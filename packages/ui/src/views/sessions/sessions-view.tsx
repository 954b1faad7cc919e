import { useApp, useLoad } from '../../hooks/index.js';
import { formatUsd } from '../../api/index.js';
import { ErrorBox, TimeAgo } from '../../components/index.js';
import { costTitle, formatCount } from '../../model/index.js';
import { href } from '../../router/index.js';

/** A project's sessions (conversations), most recently active first, with their totals. */
export function SessionsView() {
  const { api, project } = useApp();
  const sessions = useLoad((signal) => api.querySessions({ project, limit: 200 }, signal), [project]);
  const list = sessions.data?.sessions ?? [];
  return (
    <div class="view sessions-view">
      <div class="view-head">
        <h1>Sessions</h1>
      </div>
      {sessions.error && <ErrorBox error={sessions.error} retry={sessions.reload} />}
      <div class="table-wrap">
        <table class="data-table sessions-table" aria-busy={sessions.data === undefined}>
          <thead>
            <tr>
              <th>Session</th>
              <th class="col-num">Turns</th>
              <th class="col-time">First</th>
              <th class="col-time">Last</th>
              <th class="col-num">Tokens</th>
              <th class="col-num">Cost</th>
              <th class="col-num">Errors</th>
            </tr>
          </thead>
          <tbody>
            {sessions.data && list.length === 0 && (
              <tr class="empty-row">
                <td colSpan={7}>
                  No sessions yet: wrap a conversation in <code>weft.withSession(id, fn)</code>.
                </td>
              </tr>
            )}
            {list.map((s) => (
              <tr key={s.sessionId} class="session-row" data-session-id={s.sessionId}>
                <td>
                  <a href={href(project, ['sessions', s.sessionId])}>{s.sessionId}</a>
                </td>
                <td class="col-num">{s.turns}</td>
                <td class="col-time">
                  <TimeAgo ms={s.firstStartedAt} />
                </td>
                <td class="col-time">
                  <TimeAgo ms={s.lastActivityAt} />
                </td>
                <td class="col-num">{formatCount(s.totalTokens)}</td>
                {/* The one cost formatter (docs/cost.md): blank when unpriced, never $0.0000. */}
                <td class="col-num col-cost" title={costTitle(s.costUsd)}>
                  {formatUsd(s.costUsd)}
                </td>
                <td class={`col-num${s.errors > 0 ? ' delta-worse' : ''}`}>{s.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

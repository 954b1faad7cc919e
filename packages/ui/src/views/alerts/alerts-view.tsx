import { ErrorBox, Page, TableState, TimeAgo } from '../../components/index.js';
import { useApp, useIntervalRefresh, useLoad, useRowKeys } from '../../hooks/index.js';
import { href, navigate } from '../../router/index.js';
import { AlertStateBadge } from './alert-state-badge.js';
import { metricText, modeText, mutedNow } from './alert-text.js';

const REFRESH_MS = 5_000;

/** The project's alerts: what each watches, its state and since when, and whether it is muted. */
export function AlertsView() {
  const { api, project } = useApp();
  const list = useLoad((signal) => api.listAlerts(project, signal), [project]);
  useIntervalRefresh(true, REFRESH_MS, list.reload, list.settled);
  const rows = list.data?.alerts ?? [];
  const open = (index: number) => {
    const row = rows[index];
    if (row) navigate(href(project, ['alerts', row.rule.name]));
  };
  const { rowProps } = useRowKeys(rows.length, open);
  const now = Date.now();
  return (
    <Page name="alerts" title="Alerts">
      {list.error && <ErrorBox error={list.error} retry={list.reload} />}
      <div class="table-wrap">
        <table class="data-table alerts-table" aria-busy={list.data === undefined}>
          <thead>
            <tr>
              <th>Alert</th>
              <th>Metric</th>
              <th>Fires when</th>
              <th>Window</th>
              <th>State</th>
              <th class="col-time">Since</th>
              <th class="col-num">Last value</th>
              <th>Notes</th>
            </tr>
          </thead>
          <tbody>
            <TableState
              loading={list.data === undefined && !list.error}
              empty={rows.length === 0}
              columns={8}
            >
              No alerts in this project yet: add one with <code>POST /v1/alerts</code> (see
              docs/monitoring.md).
            </TableState>
            {rows.map((row, i) => (
              <tr
                key={row.rule.name}
                class="alert-row"
                data-alert={row.rule.name}
                data-state={row.state}
                onClick={() => open(i)}
                {...rowProps(i)}
              >
                <td>
                  <a href={href(project, ['alerts', row.rule.name])}>{row.rule.name}</a>
                </td>
                <td>{metricText(row.rule.metric)}</td>
                <td>{modeText(row.rule.mode)}</td>
                <td>{row.rule.window ?? '5m'}</td>
                <td>
                  <AlertStateBadge state={row.state} />
                </td>
                <td class="col-time">{row.since === null ? '—' : <TimeAgo ms={row.since} />}</td>
                <td class="col-num">{row.lastValue === null ? '—' : row.lastValue.toPrecision(4)}</td>
                <td>
                  {[
                    mutedNow(row.rule, now) ? 'muted' : undefined,
                    row.rule.enabled === false ? 'disabled' : undefined,
                    row.error ?? undefined,
                  ]
                    .filter((x) => x !== undefined)
                    .join(' · ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}

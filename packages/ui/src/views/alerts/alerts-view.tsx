import { ErrorBox, Page, TableState, TimeAgo } from '../../components/index.js';
import { useApp, useLiveList } from '../../hooks/index.js';
import { AlertMute } from './alert-mute.js';
import { AlertStateBadge } from './alert-state-badge.js';
import { metricText, modeText } from './alert-text.js';

/** The project's alerts: what each watches, its state and since when; each muted or unmuted in place. */
export function AlertsView() {
  const { api, project } = useApp();
  const { list, rows, rowHref, open, rowProps } = useLiveList({
    project,
    section: 'alerts',
    load: (signal) => api.listAlerts(project, signal),
    rows: (data) => data.alerts,
    name: (row) => row.rule.name,
  });
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
              <th>Mute</th>
              <th>Notes</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={list.pending} empty={rows.length === 0} columns={9}>
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
                  <a href={rowHref(row)}>{row.rule.name}</a>
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
                  <AlertMute rule={row.rule} onChange={list.reload} />
                </td>
                <td>
                  {[row.rule.enabled === false ? 'disabled' : undefined, row.error ?? undefined]
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

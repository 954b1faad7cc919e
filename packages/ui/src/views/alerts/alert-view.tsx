import { ErrorBox, Page, TableState, TimeAgo } from '../../components/index.js';
import { useApp, useLiveLoad } from '../../hooks/index.js';
import { formatTime } from '../../model/index.js';
import { href } from '../../router/index.js';
import { AlertMute } from './alert-mute.js';
import { AlertStateBadge } from './alert-state-badge.js';
import { metricText, modeText } from './alert-text.js';

/** One alert: its rule and state, its history of state changes (each with its calls) and webhook deliveries. */
export function AlertView({ name }: { name: string }) {
  const { api, project } = useApp();
  const load = useLiveLoad(
    async (signal) => {
      const [{ alerts }, history] = await Promise.all([
        api.listAlerts(project, signal),
        api.alertHistory(project, name, signal),
      ]);
      return { status: alerts.find((a) => a.rule.name === name), history };
    },
    [project, name],
  );
  const status = load.data?.status;
  const events = load.data?.history.events ?? [];
  const deliveries = load.data?.history.deliveries ?? [];
  return (
    <Page name="alert" title={name} crumbs={[{ label: 'Alerts', href: href(project, ['alerts']) }]}>
      {load.error && <ErrorBox error={load.error} retry={load.reload} />}
      {status && (
        <dl class="facts alert-facts">
          <dt>State</dt>
          <dd>
            <AlertStateBadge state={status.state} />
            {status.since !== null && <> since {formatTime(status.since)}</>}
          </dd>
          <dt>Metric</dt>
          <dd>
            {metricText(status.rule.metric)} over {status.rule.window ?? '5m'}
          </dd>
          <dt>Fires when</dt>
          <dd>{modeText(status.rule.mode)}</dd>
          <dt>Webhooks</dt>
          <dd>{(status.rule.channels ?? []).map((c) => `${c.format ?? 'json'}`).join(', ') || 'none'}</dd>
          <dt>Mute</dt>
          <dd>
            <AlertMute rule={status.rule} onChange={load.reload} />
          </dd>
          {status.error !== null && (
            <>
              <dt>Error</dt>
              <dd class="error-text">{status.error}</dd>
            </>
          )}
        </dl>
      )}
      <h2>History</h2>
      <div class="table-wrap">
        <table class="data-table alert-history" aria-busy={load.data === undefined}>
          <thead>
            <tr>
              <th class="col-time">When</th>
              <th>State</th>
              <th>What happened</th>
              <th>Calls</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={load.pending} empty={events.length === 0} columns={4}>
              No state changes yet.
            </TableState>
            {events.map((event) => (
              <tr key={event.at} class="event-row" data-state={event.state}>
                <td class="col-time">
                  <TimeAgo ms={event.at} />
                </td>
                <td>
                  <AlertStateBadge state={event.previous} /> → <AlertStateBadge state={event.state} />
                  {event.muted && ' (muted)'}
                </td>
                <td>{event.message}</td>
                <td>{event.callsUrl && <a href={`#${event.callsUrl.split('#')[1] ?? ''}`}>calls</a>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Deliveries</h2>
      <div class="table-wrap">
        <table class="data-table alert-deliveries">
          <thead>
            <tr>
              <th class="col-time">When</th>
              <th>Webhook</th>
              <th class="col-num">Attempt</th>
              <th>Outcome</th>
              <th>Answer</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={false} empty={deliveries.length === 0} columns={5}>
              Nothing delivered yet.
            </TableState>
            {deliveries.map((delivery, i) => (
              <tr key={i} class="delivery-row" data-outcome={delivery.outcome}>
                <td class="col-time">
                  <TimeAgo ms={delivery.at} />
                </td>
                <td class="url">{delivery.url}</td>
                <td class="col-num">{delivery.attempt}</td>
                <td>{delivery.outcome}</td>
                <td>{delivery.status ?? delivery.error ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}

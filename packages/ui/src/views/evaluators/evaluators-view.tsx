import { formatUsd } from '../../api/index.js';
import { ErrorBox, Page, TableState, TimeAgo } from '../../components/index.js';
import { useApp, useLiveList } from '../../hooks/index.js';
import { formatCount } from '../../model/index.js';
import { filterText, scorerText } from './rule-text.js';

/** The project's online evaluators: what each scores, how much it has scored, failed and spent. */
export function EvaluatorsView() {
  const { api, project } = useApp();
  const { list, rows, rowHref, open, rowProps } = useLiveList({
    project,
    section: 'evaluators',
    load: (signal) => api.listEvaluators(project, signal),
    rows: (data) => data.evaluators,
    name: (row) => row.rule.name,
  });
  return (
    <Page name="evaluators" title="Online evaluators">
      {list.error && <ErrorBox error={list.error} retry={list.reload} />}
      <div class="table-wrap">
        <table class="data-table evaluators-table" aria-busy={list.data === undefined}>
          <thead>
            <tr>
              <th>Evaluator</th>
              <th>Scorer</th>
              <th>Calls</th>
              <th class="col-num">Sample</th>
              <th class="col-num">Version</th>
              <th class="col-num">Scored</th>
              <th class="col-num">Failed</th>
              <th class="col-num">Cost today</th>
              <th>State</th>
              <th class="col-time">Last run</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={list.pending} empty={rows.length === 0} columns={10}>
              No online evaluators in this project yet: add one with <code>monitor()</code> from{' '}
              <code>@weft/sdk/monitor</code> or <code>POST /v1/evaluators</code> (see docs/monitoring.md).
            </TableState>
            {rows.map((row, i) => (
              <tr
                key={row.rule.name}
                class="evaluator-row"
                data-evaluator={row.rule.name}
                onClick={() => open(i)}
                {...rowProps(i)}
              >
                <td>
                  <a href={rowHref(row)}>{row.rule.name}</a>
                </td>
                <td>{scorerText(row.rule.scorer)}</td>
                <td>{filterText(row.rule.filter)}</td>
                <td class="col-num">{`${Math.round((row.rule.sampleRate ?? 1) * 100)}%`}</td>
                <td class="col-num">{row.version}</td>
                <td class="col-num" data-field="scored">
                  {formatCount(row.scored)}
                </td>
                <td class="col-num" data-field="failed">
                  {formatCount(row.failed)}
                </td>
                <td class="col-num">{formatUsd(row.costTodayUsd) || '—'}</td>
                <td data-field="state">
                  {row.rule.enabled === false
                    ? 'disabled'
                    : row.paused !== null
                      ? `paused: ${row.paused}`
                      : row.backfill !== null && !row.backfill.done
                        ? `backfill ${Math.round(row.backfill.progress * 100)}%`
                        : 'running'}
                </td>
                <td class="col-time">{row.lastRunAt === null ? '—' : <TimeAgo ms={row.lastRunAt} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Page>
  );
}

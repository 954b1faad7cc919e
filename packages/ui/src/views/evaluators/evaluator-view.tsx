import { formatUsd } from '../../api/index.js';
import { ErrorBox, Page, TableState, TimeAgo } from '../../components/index.js';
import { useApp, useLiveLoad } from '../../hooks/index.js';
import { formatCount } from '../../model/index.js';
import { href } from '../../router/index.js';
import { filterText, scorerText } from './rule-text.js';

/** One online evaluator: its rule, totals and cost, its recent results (each linking to its call) and errors. */
export function EvaluatorView({ name }: { name: string }) {
  const { api, project } = useApp();
  const load = useLiveLoad(
    async (signal) => {
      const [{ evaluators }, activity] = await Promise.all([
        api.listEvaluators(project, signal),
        api.evaluatorActivity(project, name, signal),
      ]);
      return { status: evaluators.find((e) => e.rule.name === name), activity };
    },
    [project, name],
  );
  const status = load.data?.status;
  const results = load.data?.activity.results ?? [];
  const errors = load.data?.activity.errors ?? [];
  return (
    <Page
      name="evaluator"
      title={name}
      crumbs={[{ label: 'Online evaluators', href: href(project, ['evaluators']) }]}
    >
      {load.error && <ErrorBox error={load.error} retry={load.reload} />}
      {status && (
        <dl class="facts evaluator-facts">
          <dt>Scorer</dt>
          <dd>{scorerText(status.rule.scorer)}</dd>
          <dt>Calls</dt>
          <dd>{filterText(status.rule.filter)}</dd>
          <dt>Sample</dt>
          <dd>{`${Math.round((status.rule.sampleRate ?? 1) * 100)}% of traces`}</dd>
          <dt>Version</dt>
          <dd>{status.version}</dd>
          <dt>Scored</dt>
          <dd data-field="scored">{formatCount(status.scored)}</dd>
          <dt>Failed</dt>
          <dd data-field="failed">{formatCount(status.failed)}</dd>
          <dt>Cost</dt>
          <dd>
            {formatUsd(status.costTodayUsd) || '$0'} today · {formatUsd(status.costUsd) || '$0'} in all
            {status.rule.scorer.type === 'llm' &&
              ` (cap ${formatUsd(status.rule.scorer.dailyCostCapUsd ?? 5)} a day)`}
          </dd>
          {status.paused !== null && (
            <>
              <dt>Paused</dt>
              <dd>{status.paused}</dd>
            </>
          )}
          {status.backfill !== null && (
            <>
              <dt>Backfill</dt>
              <dd>
                <progress max={1} value={status.backfill.progress} />{' '}
                {Math.round(status.backfill.progress * 100)}%{status.backfill.done ? ' (done)' : ''}
              </dd>
            </>
          )}
        </dl>
      )}
      <h2>Recent results</h2>
      <div class="table-wrap">
        <table class="data-table evaluator-results" aria-busy={load.data === undefined}>
          <thead>
            <tr>
              <th class="col-time">When</th>
              <th>Call</th>
              <th>Scores</th>
              <th class="col-num">Version</th>
              <th class="col-num">Cost</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={load.pending} empty={results.length === 0} columns={5}>
              No results yet: the evaluator scores calls that complete after it was created (or a backfill's).
            </TableState>
            {results.map((result) => (
              <tr key={`${result.callId}:${result.version}`} class="result-row" data-call-id={result.callId}>
                <td class="col-time">
                  <TimeAgo ms={result.at} />
                </td>
                <td>
                  <a href={href(project, ['calls', result.callId])}>{result.callId}</a>
                </td>
                <td class="scores">
                  {Object.entries(result.scores)
                    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
                    .join(' · ')}
                </td>
                <td class="col-num">{result.version}</td>
                <td class="col-num">{formatUsd(result.costUsd) || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {errors.length > 0 && (
        <>
          <h2>Errors</h2>
          <ul class="evaluator-errors">
            {errors.map((error, i) => (
              <li key={i}>
                <TimeAgo ms={error.at} />{' '}
                {error.callId !== null && <a href={href(project, ['calls', error.callId])}>{error.callId}</a>}
                : {error.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </Page>
  );
}

import { useState } from 'preact/hooks';
import type { TraceDiffResponse } from '../../api/index.js';
import { DiffTable, diffRows, ErrorBox, Page } from '../../components/index.js';
import { useApp, useLoad, useRowKeys } from '../../hooks/index.js';
import { href, navigate, type Route } from '../../router/index.js';

type Step = TraceDiffResponse['steps'][number];
type Difference = Step['inputs'][number];

const STATUS_TEXT: Record<Step['status'], string> = {
  same: 'same',
  changed: 'differs',
  'left-only': 'left only',
  'right-only': 'right only',
};

/** The last segment of a step path, indented by its depth in the table. */
function stepLabel(step: Step): string {
  return step.path.slice(step.path.lastIndexOf('/') + 1);
}

function Differences({ title, differences }: { title: string; differences: readonly Difference[] }) {
  if (differences.length === 0) return null;
  return (
    <section class="diff-section">
      <h3>{title}</h3>
      <DiffTable rows={diffRows(differences)} beforeLabel="Left" afterLabel="Right" />
    </section>
  );
}

/**
 * Two traces of one entry op side by side, aligned by step path (op path and
 * position among same-op siblings): the first divergence is marked and
 * selected, and the selected step's input and output differences are shown.
 * For a replay or fork against its original, or any two runs.
 */
export function TraceDiffView({ route, left, right }: { route: Route; left: string; right: string }) {
  const { api, project } = useApp();
  const diff = useLoad((signal) => api.traceDiff({ project, left, right }, signal), [project, left, right]);
  const steps = diff.data?.steps ?? [];
  const first = diff.data?.firstDivergence ?? null;
  const selectedPath = route.query.get('step');
  const selectedIndex = Math.max(
    0,
    selectedPath === null ? (first ?? 0) : steps.findIndex((s) => s.path === selectedPath),
  );
  const selected = steps[selectedIndex];
  const [showSame, setShowSame] = useState(true);
  const select = (i: number) => {
    const step = steps[i];
    if (step) navigate(href(project, ['trace', left, 'diff', right], { step: step.path }), true);
  };
  const { rowProps } = useRowKeys(steps.length, select);
  const traceLink = (id: string | null) =>
    id === null ? <span class="muted">—</span> : <a href={href(project, ['calls', id])}>{id.slice(-8)}</a>;
  return (
    <Page
      name="trace-diff"
      title="Compare traces"
      crumbs={[
        { label: 'Traces', href: href(project, ['traces']) },
        { label: left.slice(-8), href: href(project, ['trace', left]) },
      ]}
      actions={
        <label class="checkbox">
          <input type="checkbox" checked={showSame} onChange={(e) => setShowSame(e.currentTarget.checked)} />{' '}
          Show steps that match
        </label>
      }
    >
      {diff.error && <ErrorBox error={diff.error} retry={diff.reload} />}
      {diff.data && (
        <p class="diff-summary" data-first-divergence={first === null ? '' : steps[first]?.path}>
          Left <a href={href(project, ['trace', left])}>{diff.data.left.opName}</a> ({diff.data.left.calls}{' '}
          calls) · right <a href={href(project, ['trace', right])}>{diff.data.right.opName}</a> (
          {diff.data.right.calls} calls) ·{' '}
          {first === null ? (
            <strong>The traces match step for step.</strong>
          ) : (
            <strong>
              First divergence at <code>{steps[first]?.path}</code>
            </strong>
          )}
        </p>
      )}
      <div class="split">
        <div class="split-main table-wrap">
          <table class="data-table trace-diff-table" aria-busy={diff.data === undefined}>
            <thead>
              <tr>
                <th>Step</th>
                <th>Left</th>
                <th>Right</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {steps.map((step, i) =>
                !showSame && step.status === 'same' && i !== first ? null : (
                  <tr
                    key={step.path}
                    {...rowProps(i)}
                    onClick={() => select(i)}
                    class={`diff-step diff-step-${step.status}${i === first ? ' first-divergence' : ''}${
                      first !== null && i > first ? ' after-divergence' : ''
                    }${i === selectedIndex ? ' selected' : ''}`}
                    data-path={step.path}
                  >
                    <td title={step.path} style={{ paddingLeft: `${0.5 + step.depth}rem` }}>
                      {stepLabel(step)}
                      {i === first && <span class="badge diverged-badge"> first divergence</span>}
                    </td>
                    <td>{traceLink(step.left)}</td>
                    <td>{traceLink(step.right)}</td>
                    <td>
                      <span class={`diff-status diff-status-${step.status}`}>{STATUS_TEXT[step.status]}</span>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
        <div class="split-side diff-detail" aria-live="polite">
          {selected && (
            <>
              <h2>
                <code>{selected.path}</code>
              </h2>
              {selected.status === 'same' && <p class="muted">Same inputs and result on both sides.</p>}
              {selected.status === 'left-only' && <p>Only the left trace has this step.</p>}
              {selected.status === 'right-only' && <p>Only the right trace has this step.</p>}
              <Differences title="Inputs" differences={selected.inputs} />
              <Differences title="Result" differences={selected.output} />
            </>
          )}
        </div>
      </div>
    </Page>
  );
}

import { useApp, useLoad } from '../../hooks/index.js';
import {
  CopyButton,
  ErrorBox,
  JsonDiffView,
  JsonViewer,
  LabelEditor,
  TableRows,
  TimeAgo,
} from '../../components/index.js';
import { conversationOf, findRefs, formatTime, variantFromPrompt } from '../../model/index.js';
import { href, navigate, type Route } from '../../router/index.js';

/**
 * One named object: its versions with dates, the chosen version's value (a
 * dataset's rows paged below it), and a diff against another version.
 */
export function ObjectView({ route, name }: { route: Route; name: string }) {
  const { api, project } = useApp();
  const versions = useLoad((signal) => api.objectVersions(project, name, signal), [project, name]);
  const list = versions.data?.versions ?? [];
  const labels = useLoad((signal) => api.objectLabels(project, name, signal), [project, name]);
  const labelsOf = (version: number) => (labels.data?.labels ?? []).filter((l) => l.version === version);
  const selector = route.query.get('v') ?? 'latest';
  const diffWith = route.query.get('diff') ?? '';
  const value = useLoad(
    (signal) => api.readObject(project, name, selector, signal),
    [project, name, selector],
  );
  const other = useLoad(
    (signal) => (diffWith ? api.readObject(project, name, diffWith, signal) : Promise.resolve(undefined)),
    [project, name, diffWith],
  );
  const current = value.data;
  const tables = current ? findRefs(current.value).filter((r) => r.ref.kind === 'table') : [];
  const go = (v: string, diff: string) => navigate(href(project, ['objects', name], { v, diff }), true);

  return (
    <div class="view object-view">
      <div class="view-head">
        <h1>
          <a href={href(project, ['objects'])}>Objects</a> / {name}
        </h1>
      </div>
      {versions.error && <ErrorBox error={versions.error} retry={versions.reload} />}
      <div class="split">
        <div class="split-narrow">
          <h2>Versions</h2>
          <table class="data-table versions-table" aria-busy={versions.data === undefined}>
            <thead>
              <tr>
                <th class="col-num">#</th>
                <th>Digest</th>
                <th>Labels</th>
                <th class="col-time">Created</th>
                <th>Compare</th>
              </tr>
            </thead>
            <tbody>
              {[...list].reverse().map((v) => {
                const selected = current?.digest === v.digest;
                return (
                  <tr
                    key={v.digest}
                    class={`version-row${selected ? ' selected' : ''}`}
                    data-version={v.version}
                  >
                    <td class="col-num">v{v.version}</td>
                    <td>
                      <a
                        href={href(project, ['objects', name], { v: v.digest, diff: diffWith })}
                        aria-current={selected}
                      >
                        <code>{v.digest.slice(0, 12)}</code>
                      </a>
                    </td>
                    <td>
                      {labelsOf(v.version).map((l) => (
                        <a
                          key={l.label}
                          class="chip label-chip"
                          href={href(project, ['objects', name], { v: l.label })}
                        >
                          {l.label}
                        </a>
                      ))}
                    </td>
                    <td class="col-time">
                      <TimeAgo ms={v.createdAt} />
                    </td>
                    <td>
                      <input
                        type="radio"
                        name="diff-with"
                        aria-label={`Compare with v${v.version}`}
                        checked={diffWith === v.digest}
                        disabled={selected}
                        onChange={() => go(current?.digest ?? selector, v.digest)}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {diffWith && (
            <button type="button" class="button small" onClick={() => go(selector, '')}>
              Clear comparison
            </button>
          )}
        </div>
        <div class="split-main">
          {value.error && <ErrorBox error={value.error} retry={value.reload} />}
          {current ? (
            <>
              <div class="call-title">
                <h2>
                  v{current.version}{' '}
                  <span class="muted">
                    · {current.kind} · {formatTime(current.createdAt)}
                  </span>
                </h2>
                {variantFromPrompt(
                  current.value,
                  (inputs) => conversationOf({ ...current, ...PROMPT_CALL, inputs }),
                  '',
                ) && (
                  <a
                    class="button small open-playground"
                    href={href(project, ['playground'], { object: name, v: `v${current.version}` })}
                  >
                    Open in playground
                  </a>
                )}
                <CopyButton text={() => JSON.stringify(current.value, null, 2)} />
              </div>
              <p class="muted">
                <code>{current.ref}</code>
              </p>
              <LabelEditor name={name} version={current.version} onSet={labels.reload} />
              {diffWith && other.data && (
                <section class="detail-section" data-section="diff">
                  <h3>
                    Diff v{other.data.version} → v{current.version}
                  </h3>
                  <JsonDiffView before={other.data.value} after={current.value} />
                </section>
              )}
              <section class="detail-section" data-section="value">
                <h3>Value</h3>
                <JsonViewer value={current.value} openDepth={3} label="Value" />
              </section>
              {tables.map(({ uri, ref }) => (
                <section key={uri} class="detail-section" data-section="rows">
                  <h3>Rows</h3>
                  <TableRows
                    digest={ref.kind === 'table' ? ref.digest : ''}
                    project={ref.project}
                    columnOrder={datasetColumnsOf(current.value)}
                  />
                </section>
              ))}
            </>
          ) : (
            !value.error && <div class="placeholder-panel tall" />
          )}
        </div>
      </div>
    </div>
  );
}

/** A dataset version's `columns` (its rows' keys in the order written), or none. */
function datasetColumnsOf(value: unknown): string[] {
  const columns = (value as { columns?: unknown } | null)?.columns;
  return Array.isArray(columns) ? columns.filter((c): c is string => typeof c === 'string') : [];
}

/** The call fields a prompt object's value is read with (as the inputs of a call that never ran). */
const PROMPT_CALL = {
  id: '',
  traceId: '',
  parentId: null,
  opName: 'prompt',
  displayName: null,
  startedAt: 0,
  endedAt: null,
  status: 'running' as const,
  output: null,
  exception: null,
  summary: null,
  attributes: {},
};

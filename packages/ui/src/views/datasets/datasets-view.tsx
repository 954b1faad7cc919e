import { tryParseRef } from '../../api/index.js';
import { ErrorBox, Page, TableState, TimeAgo } from '../../components/index.js';
import { useApp, useLoad, useRowKeys } from '../../hooks/index.js';
import { formatCount } from '../../model/index.js';
import { href, navigate } from '../../router/index.js';

/** Objects whose latest version is read to tell datasets apart; past this, the list says so. */
const MAX_OBJECTS_READ = 300;

/** A dataset version's value, as `Dataset.publish` and "add to dataset" write it: `{ rows: <table ref>, rowCount }`. */
function datasetRows(value: unknown): { digest: string; rowCount: number | undefined } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { rows, rowCount } = value as { rows?: unknown; rowCount?: unknown };
  const ref = tryParseRef(rows);
  if (ref?.kind !== 'table') return undefined;
  return { digest: ref.digest, rowCount: typeof rowCount === 'number' ? rowCount : undefined };
}

/** The project's datasets with their row counts and versions, most recently updated first. */
export function DatasetsView() {
  const { api, project } = useApp();
  const list = useLoad(
    async (signal) => {
      const { objects } = await api.listObjects(project, signal);
      const candidates = objects
        .filter((o) => o.kind === 'object')
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .slice(0, MAX_OBJECTS_READ);
      const read = await Promise.all(
        candidates.map((o) =>
          api.readObject(project, o.name, 'latest', signal).then(
            (latest) => ({ object: o, rows: datasetRows(latest.value) }),
            () => ({ object: o, rows: undefined }),
          ),
        ),
      );
      const datasets = read.flatMap((r) => (r.rows === undefined ? [] : [{ ...r.object, rows: r.rows }]));
      return { datasets, unread: Math.max(0, objects.length - MAX_OBJECTS_READ) };
    },
    [project],
  );
  const datasets = list.data?.datasets ?? [];
  const open = (i: number) => {
    const d = datasets[i];
    if (d) navigate(href(project, ['objects', d.name]));
  };
  const { rowProps } = useRowKeys(datasets.length, open);
  return (
    <Page name="datasets" title="Datasets">
      {list.error && <ErrorBox error={list.error} retry={list.reload} />}
      <div class="table-wrap">
        <table class="data-table datasets-table" aria-busy={list.data === undefined}>
          <thead>
            <tr>
              <th>Dataset</th>
              <th class="col-num">Rows</th>
              <th class="col-num">Versions</th>
              <th class="col-time">Updated</th>
            </tr>
          </thead>
          <tbody>
            <TableState
              loading={list.data === undefined && !list.error}
              empty={datasets.length === 0}
              columns={4}
            >
              No datasets yet: publish one with <code>new weft.Dataset({'{ name, rows }'}).publish()</code>,
              or add calls to one from the Traces table.
            </TableState>
            {datasets.map((d, i) => (
              <tr
                key={d.name}
                class="dataset-list-row"
                data-name={d.name}
                onClick={() => open(i)}
                {...rowProps(i)}
              >
                <td>
                  <a href={href(project, ['objects', d.name])} tabIndex={-1}>
                    {d.name}
                  </a>
                </td>
                <td class="col-num">{formatCount(d.rows.rowCount)}</td>
                <td class="col-num">{formatCount(d.versionCount)}</td>
                <td class="col-time">
                  <TimeAgo ms={d.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(list.data?.unread ?? 0) > 0 && (
        <p class="muted">
          {formatCount(list.data?.unread)} older objects were not read; find them under{' '}
          <a href={href(project, ['objects'])}>Objects</a>.
        </p>
      )}
    </Page>
  );
}

import { useApp, useLoad, useRowKeys } from '../../hooks/index.js';
import { ErrorBox, TableState, TimeAgo } from '../../components/index.js';
import { href, navigate } from '../../router/index.js';

/** Every named object and op of the project, most recently updated first. */
export function ObjectsView() {
  const { api, project } = useApp();
  const list = useLoad((signal) => api.listObjects(project, signal), [project]);
  const objects = [...(list.data?.objects ?? [])].sort((a, b) => b.updatedAt - a.updatedAt);
  const open = (i: number) => {
    const o = objects[i];
    if (o) navigate(href(project, ['objects', o.name]));
  };
  const { rowProps } = useRowKeys(objects.length, open);
  return (
    <div class="view objects-view">
      <div class="view-head">
        <h1>Objects and datasets</h1>
      </div>
      {list.error && <ErrorBox error={list.error} retry={list.reload} />}
      <div class="table-wrap">
        <table class="data-table" aria-busy={list.data === undefined}>
          <thead>
            <tr>
              <th>Name</th>
              <th class="col-status">Kind</th>
              <th class="col-num">Versions</th>
              <th class="col-time">Updated</th>
            </tr>
          </thead>
          <tbody>
            <TableState
              loading={list.data === undefined && !list.error}
              empty={objects.length === 0}
              columns={4}
              placeholders={8}
            >
              No objects published in this project yet.
            </TableState>
            {objects.map((o, i) => (
              <tr key={o.name} class="object-row" data-name={o.name} onClick={() => open(i)} {...rowProps(i)}>
                <td>
                  <a href={href(project, ['objects', o.name])} tabIndex={-1}>
                    {o.name}
                  </a>
                </td>
                <td class="col-status">{o.kind}</td>
                <td class="col-num">{o.versionCount}</td>
                <td class="col-time">
                  <TimeAgo ms={o.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { useApp, useLoad } from '../hooks/index.js';
import { isRefUri } from '../api/index.js';
import { formatCount } from '../model/index.js';
import { ErrorBox } from './error-box.js';
import { JsonViewer } from './json-viewer.js';
import { Pager } from './pager.js';
import { RefLink } from './ref-link.js';

const PAGE_ROWS = 25;
const MAX_COLUMNS = 12;

function cellText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? '' : text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * A table's rows, paged from the server, as a grid of the rows' top-level
 * keys. Rows arrive as canonical JSON (keys sorted); `columnOrder` (a
 * dataset's `columns`) puts the keys it names first, in its order.
 */
export function TableRows({
  digest,
  project: refProject,
  columnOrder = [],
}: {
  digest: string;
  project?: string;
  columnOrder?: readonly string[];
}) {
  const app = useApp();
  const project = refProject ?? app.project;
  const [offset, setOffset] = useState(0);
  const [opened, setOpened] = useState<number | undefined>(undefined);
  const page = useLoad(
    (signal) => app.api.tableRows(project, digest, offset, PAGE_ROWS, signal),
    [project, digest, offset],
  );
  const turn = (next: number) => {
    setOpened(undefined);
    setOffset(next);
  };
  const rows = page.data?.rows ?? [];
  // Numbers come from the page shown, not the one asked for, so rows never
  // carry the wrong index while the next page loads (they are dimmed then).
  const shownOffset = page.data?.offset ?? 0;
  const stale = page.data !== undefined && shownOffset !== offset;
  const present = new Set(
    rows.flatMap((r) =>
      r.value && typeof r.value === 'object' && !Array.isArray(r.value) ? Object.keys(r.value) : [],
    ),
  );
  const columns = [...new Set([...columnOrder.filter((c) => present.has(c)), ...present])].slice(
    0,
    MAX_COLUMNS,
  );
  const total = page.data?.rowCount ?? 0;
  const cell = (value: unknown) => (isRefUri(value) ? <RefLink uri={value} /> : cellText(value));
  return (
    <div class="table-rows" data-table-digest={digest}>
      {page.error && <ErrorBox error={page.error} retry={page.reload} />}
      <div class="table-wrap">
        <table
          class={`data-table rows-table${stale ? ' stale' : ''}`}
          aria-busy={page.data === undefined || stale}
        >
          <thead>
            <tr>
              <th class="col-index">#</th>
              {columns.length > 0 ? columns.map((c) => <th key={c}>{c}</th>) : <th>value</th>}
            </tr>
          </thead>
          <tbody>
            {page.data === undefined &&
              !page.error &&
              Array.from({ length: 6 }, (_, i) => (
                <tr key={i} class="placeholder-row">
                  <td colSpan={2}>
                    <span class="skeleton" />
                  </td>
                </tr>
              ))}
            {rows.map((row, i) => {
              const record = row.value as Record<string, unknown>;
              return (
                <Fragment key={row.digest + i}>
                  <tr
                    class="dataset-row"
                    tabIndex={0}
                    onClick={() => setOpened(opened === i ? undefined : i)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') setOpened(opened === i ? undefined : i);
                    }}
                  >
                    <td class="col-index">{shownOffset + i}</td>
                    {columns.length > 0
                      ? columns.map((c) => <td key={c}>{cell(record[c])}</td>)
                      : [<td key="v">{cell(row.value)}</td>]}
                  </tr>
                  {opened === i && (
                    <tr class="row-detail">
                      <td colSpan={columns.length + 1 || 2}>
                        <JsonViewer value={row.value} openDepth={3} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager
        label={
          total === 0
            ? 'No rows'
            : `Rows ${formatCount(shownOffset + 1)}–${formatCount(shownOffset + rows.length)} of ${formatCount(total)}`
        }
        hasPrevious={!stale && offset > 0}
        hasNext={!stale && offset + PAGE_ROWS < total}
        onPrevious={() => turn(Math.max(0, offset - PAGE_ROWS))}
        onNext={() => turn(offset + PAGE_ROWS)}
      />
    </div>
  );
}

import { useMemo, useState } from 'preact/hooks';
import { useApp, useColumns, useIntervalRefresh, useLoad, useRowKeys } from '../../hooks/index.js';
import type { CallFilter, CallQuery, CallSortField, CallStatus } from '../../api/index.js';
import { AddToDataset, ColumnChooser, ErrorBox, Pager, TableState } from '../../components/index.js';
import {
  attributesFromQuery,
  attributesToQuery,
  chipText,
  callPreview,
  formatTime,
  parseAttributeChip,
  plainOpName,
} from '../../model/index.js';
import { href, navigate, type QueryValue, type Route } from '../../router/index.js';
import { CALL_COLUMNS } from './call-columns.js';
import { CallTotals } from './call-totals.js';

const PAGE_SIZE = 50;
const LIVE_REFRESH_MS = 3_000;

/** Relative time ranges offered by the filter bar, in ms back from now. */
const RANGES: Record<string, number> = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
};

/**
 * Calls with filters, server-side sort and cursor paging, refreshed live:
 * the root calls (one row per trace, the Traces section) or every call at
 * any depth (the Calls section).
 */
export function CallsView({ route, scope }: { route: Route; scope: 'roots' | 'all' }) {
  const section = scope === 'roots' ? 'traces' : 'calls';
  const { api, project } = useApp();
  const q = route.query;
  const filters = {
    op: q.get('op') ?? '',
    status: q.get('status') ?? '',
    range: q.get('range') ?? '',
    // An exact start-time range [from, to) in epoch ms: what a dashboard point or an alert links to.
    from: q.get('from') ?? '',
    to: q.get('to') ?? '',
    text: q.get('q') ?? '',
    attrs: q.getAll('attrs'),
    feedback: q.get('feedback') ?? '',
    sort: (q.get('sort') ?? 'startedAt') as CallSortField,
    dir: (q.get('dir') ?? 'desc') as 'asc' | 'desc',
  };
  const filterKey = JSON.stringify(filters);
  // Cursor of each page visited under the current filters; page 0 has none.
  const [paging, setPaging] = useState<{ key: string; cursors: (string | undefined)[]; index: number }>({
    key: filterKey,
    cursors: [undefined],
    index: 0,
  });
  const page = paging.key === filterKey ? paging : { key: filterKey, cursors: [undefined], index: 0 };
  const cursor = page.cursors[page.index];

  const range = RANGES[filters.range];
  const fromMs = epochMs(filters.from);
  const toMs = epochMs(filters.to);
  // The filters as the server takes them, for the page and for the totals alike.
  const filter = useMemo(() => {
    const f: CallFilter = scope === 'roots' ? { parentId: null } : {};
    if (filters.op) f.opName = filters.op;
    if (filters.status) f.status = filters.status as CallStatus;
    if (filters.text) f.text = filters.text;
    const { attributes } = attributesFromQuery(filters.attrs);
    if (Object.keys(attributes).length > 0) f.attributes = attributes;
    if (filters.feedback === 'any') f.feedback = {};
    else if (filters.feedback === 'up') f.feedback = { name: 'thumbs', value: true };
    else if (filters.feedback === 'down') f.feedback = { name: 'thumbs', value: false };
    return f;
  }, [scope, filterKey]);
  const [rangeStart, setRangeStart] = useState<number | undefined>(undefined);
  const calls = useLoad(
    (signal) => {
      const startedAfter = fromMs ?? (range === undefined ? undefined : Date.now() - range);
      setRangeStart(startedAfter);
      const query: CallQuery = {
        project,
        ...filter,
        ...(startedAfter === undefined ? {} : { startedAfter }),
        ...(toMs === undefined ? {} : { startedBefore: toMs }),
        sort: { field: filters.sort, direction: filters.dir },
        limit: PAGE_SIZE,
      };
      if (cursor !== undefined) query.cursor = cursor;
      return api.queryCalls(query, signal).then((page) => ({ ...page, key: `${filterKey}|${cursor ?? ''}` }));
    },
    [project, scope, filterKey, cursor],
  );
  const rows = calls.data?.calls ?? [];
  // Rows of the previous filters or page stay visible (dimmed, inert) until
  // the new ones arrive, so the table never collapses and nobody opens a stale row.
  const stale = calls.data !== undefined && calls.data.key !== `${filterKey}|${cursor ?? ''}`;
  const anyRunning = rows.some((c) => c.status === 'running');
  useIntervalRefresh(page.index === 0 || anyRunning, LIVE_REFRESH_MS, calls.reload, calls.settled);

  // The address's query as it stands; an edit changes some of it.
  const current = (): Record<string, QueryValue> => ({
    op: filters.op,
    status: filters.status,
    range: filters.range,
    from: filters.from,
    to: filters.to,
    q: filters.text,
    attrs: filters.attrs,
    feedback: filters.feedback,
    sort: filters.sort === 'startedAt' ? '' : filters.sort,
    dir: filters.dir === 'desc' ? '' : filters.dir,
  });
  const setFilter = (key: string, value: QueryValue) => {
    const next = current();
    next[key] = value;
    // A relative range replaces an exact one.
    if (key === 'range') next.from = next.to = '';
    navigate(href(project, [section], next), true);
  };
  const sortBy = (field: CallSortField) => {
    const dir = filters.sort === field && filters.dir === 'desc' ? 'asc' : 'desc';
    navigate(
      href(project, [section], {
        ...current(),
        sort: field === 'startedAt' ? undefined : field,
        dir: dir === 'desc' ? undefined : dir,
      }),
      true,
    );
  };
  const open = (index: number) => {
    if (stale) return;
    const call = rows[index];
    if (call) navigate(href(project, ['trace', call.traceId], { call: call.id }));
  };
  const { rowProps } = useRowKeys(rows.length, open);
  const opNames = useMemo(() => [...new Set(rows.map((c) => plainOpName(c.opName)))].sort(), [rows]);
  const firstLoad = calls.data === undefined && calls.error === undefined;
  const { attributes, invalid: invalidAttributes } = attributesFromQuery(filters.attrs);
  const [chipDraft, setChipDraft] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const setAttributes = (next: Record<string, string | number | boolean>) =>
    setFilter('attrs', attributesToQuery(next));
  const addChip = () => {
    const parsed = parseAttributeChip(chipDraft);
    if (parsed === undefined) return;
    setAttributes({ ...attributes, [parsed[0]]: parsed[1] });
    setChipDraft('');
  };
  const columns = useColumns(section, CALL_COLUMNS);
  const previews = useMemo(() => new Map(rows.map((c) => [c.id, callPreview(c)])), [rows]);
  const visible = CALL_COLUMNS.filter((c) => columns.shown(c.id));
  const toggle = (id: string) =>
    setSelected((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));

  return (
    <div class={`view calls-view ${section}-view`}>
      <div class="view-head">
        <h1>{scope === 'roots' ? 'Traces' : 'Calls'}</h1>
        <span class="live-indicator" aria-live="polite">
          {calls.loading ? 'Updating…' : page.index === 0 || anyRunning ? 'Live' : ''}
        </span>
      </div>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label>
          Op
          <input
            name="op"
            list="op-names"
            value={filters.op}
            placeholder="any op"
            onChange={(e) => setFilter('op', (e.target as HTMLInputElement).value.trim())}
          />
          <datalist id="op-names">
            {opNames.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </label>
        <label>
          Status
          <select
            name="status"
            value={filters.status}
            onChange={(e) => setFilter('status', (e.target as HTMLSelectElement).value)}
          >
            <option value="">any</option>
            <option value="success">success</option>
            <option value="error">error</option>
            <option value="running">running</option>
          </select>
        </label>
        <label>
          Started
          <select
            name="range"
            value={filters.range}
            onChange={(e) => setFilter('range', (e.target as HTMLSelectElement).value)}
          >
            <option value="">any time</option>
            <option value="15m">last 15 minutes</option>
            <option value="1h">last hour</option>
            <option value="24h">last 24 hours</option>
            <option value="7d">last 7 days</option>
          </select>
        </label>
        <label>
          Feedback
          <select
            name="feedback"
            value={filters.feedback}
            onChange={(e) => setFilter('feedback', (e.target as HTMLSelectElement).value)}
          >
            <option value="">any</option>
            <option value="any">has feedback</option>
            <option value="up">thumbs up</option>
            <option value="down">thumbs down</option>
          </select>
        </label>
        <label class="grow">
          Search
          <input
            name="q"
            type="search"
            value={filters.text}
            placeholder="words in names, inputs and outputs…"
            onChange={(e) => setFilter('q', (e.target as HTMLInputElement).value.trim())}
          />
        </label>
      </form>
      <fieldset class="chips" aria-label="Attribute filters">
        {(fromMs !== undefined || toMs !== undefined) && (
          <span class="chip" data-filter="started">
            started {fromMs === undefined ? '…' : formatTime(fromMs)} –{' '}
            {toMs === undefined ? 'now' : formatTime(toMs)}
            <button
              type="button"
              class="chip-remove"
              aria-label="Remove start time filter"
              onClick={() => navigate(href(project, [section], { ...current(), from: '', to: '' }), true)}
            >
              ×
            </button>
          </span>
        )}
        {Object.entries(attributes).map(([key, value]) => (
          <span key={key} class="chip" data-attribute={key}>
            {chipText(key, value)}
            <button
              type="button"
              class="chip-remove"
              aria-label={`Remove ${key} filter`}
              onClick={() => {
                const { [key]: _, ...rest } = attributes;
                setAttributes(rest);
              }}
            >
              ×
            </button>
          </span>
        ))}
        <input
          name="attribute"
          class="chip-input"
          placeholder="attribute=value, Enter"
          value={chipDraft}
          onInput={(e) => setChipDraft((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addChip();
            }
          }}
        />
        <AddToDataset callIds={selected} onDone={() => setSelected([])} />
        <ColumnChooser columns={CALL_COLUMNS} shown={columns.shown} toggle={columns.toggle} />
      </fieldset>
      <CallTotals filter={filter} fromMs={rangeStart} toMs={toMs} refreshKey={calls.settled} />
      {invalidAttributes.length > 0 && (
        <p class="error-box" role="alert" data-invalid="attrs">
          Not filtering by {invalidAttributes.map((a) => `“${a}”`).join(', ')}: write an attribute filter as{' '}
          <code>key=value</code> (in the URL, <code>attrs=plan%3Dpro</code>, one <code>attrs</code> per
          filter).
        </p>
      )}
      {calls.error && <ErrorBox error={calls.error} retry={calls.reload} />}
      <div class="table-wrap">
        <table class={`data-table calls-table${stale ? ' stale' : ''}`} aria-busy={firstLoad || stale}>
          <thead>
            <tr>
              <th class="col-select">
                <span class="visually-hidden">Select</span>
              </th>
              {visible.map((col) => (
                <th
                  key={col.id}
                  class={col.class}
                  aria-sort={
                    col.sort && filters.sort === col.sort
                      ? filters.dir === 'asc'
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  {col.sort ? (
                    <button type="button" class="sort-button" onClick={() => sortBy(col.sort!)}>
                      {col.label}
                      <span class="sort-mark" aria-hidden="true">
                        {filters.sort === col.sort ? (filters.dir === 'asc' ? '▲' : '▼') : ''}
                      </span>
                    </button>
                  ) : (
                    col.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <TableState
              loading={firstLoad}
              empty={rows.length === 0}
              columns={visible.length + 1}
              placeholders={12}
            >
              No calls match these filters.
            </TableState>
            {rows.map((call, i) => (
              <tr
                key={call.id}
                class="call-row"
                data-call-id={call.id}
                data-status={call.status}
                onClick={() => open(i)}
                {...rowProps(i)}
              >
                <td class="col-select">
                  <input
                    type="checkbox"
                    aria-label={`Select call ${call.id}`}
                    checked={selected.includes(call.id)}
                    // Ticking a call must not open its trace (the row's click).
                    onClick={(e) => e.stopPropagation()}
                    onChange={() => toggle(call.id)}
                  />
                </td>
                {visible.map((col) => (
                  <td key={col.id} class={col.class} title={col.title?.(call)}>
                    {col.cell(call, previews.get(call.id) ?? { input: '', output: '' })}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        label={`Page ${page.index + 1}`}
        hasPrevious={page.index > 0}
        hasNext={!stale && Boolean(calls.data?.nextCursor)}
        onPrevious={() => setPaging({ ...page, index: page.index - 1 })}
        onNext={() => {
          const next = calls.data?.nextCursor ?? undefined;
          const cursors = page.cursors.slice(0, page.index + 1);
          cursors.push(next);
          setPaging({ key: page.key, cursors, index: page.index + 1 });
        }}
      />
    </div>
  );
}

/** An epoch-ms time from the address, `undefined` when absent or not a number. */
function epochMs(text: string): number | undefined {
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

import { href, navigate } from '../router/index.js';
import { useIntervalRefresh } from './use-interval-refresh.js';
import { type Load, useLoad } from './use-load.js';
import { useRowKeys } from './use-row-keys.js';

/** How often live monitoring pages poll (the read API has no push channel). */
export const LIVE_REFRESH_MS = 5_000;

/**
 * Data a page keeps live: loaded when `deps` change, then reloaded every
 * {@link LIVE_REFRESH_MS} while shown. `pending`: nothing to show yet
 * (neither data nor an error; a reload keeps the last data on screen).
 */
export function useLiveLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): Load<T> & { pending: boolean } {
  const state = useLoad(load, deps);
  useIntervalRefresh(true, LIVE_REFRESH_MS, state.reload, state.settled);
  return { ...state, pending: state.data === undefined && state.error === undefined };
}

/**
 * A live list of a project's rules (alerts, online evaluators): the
 * {@link useLiveLoad} state, its rows, and keyboard and click opening of
 * the row's own page, `#/<project>/<section>/<row name>`.
 */
export function useLiveList<T, R>(options: {
  project: string;
  section: string;
  load: (signal: AbortSignal) => Promise<T>;
  rows: (data: T) => R[];
  name: (row: R) => string;
}) {
  const { project, section } = options;
  const list = useLiveLoad(options.load, [project]);
  const rows = list.data === undefined ? [] : options.rows(list.data);
  const rowHref = (row: R) => href(project, [section, options.name(row)]);
  const open = (index: number) => {
    const row = rows[index];
    if (row !== undefined) navigate(rowHref(row));
  };
  const { rowProps } = useRowKeys(rows.length, open);
  return { list, rows, rowHref, open, rowProps };
}

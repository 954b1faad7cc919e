export { type AppContext, appContext, useApp } from './app-context.js';
export { useIntervalRefresh } from './use-interval-refresh.js';
export { type Load, useLoad } from './use-load.js';
export { type ChoosableColumn, useColumns } from './use-columns.js';
export { useRowKeys } from './use-row-keys.js';
export { LIVE_REFRESH_MS, useLiveList, useLiveLoad } from './use-live-list.js';

// What the calls command offers the package's library entry besides the
// command itself: fetching calls and printing them as `weft calls` does.
export { callRow, formatCallsTable } from './calls-table.js';
export { fetchCalls, type FetchedCalls } from './fetch-calls.js';
export { type CallAtDepth, traceOrder } from './trace-order.js';

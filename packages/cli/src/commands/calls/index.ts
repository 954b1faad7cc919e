// What the calls command offers the package's library entry besides the
// command itself: printing calls as `weft calls` does.
export { callRow, formatCallsTable } from './calls-table.js';
export { type CallAtDepth, traceOrder } from './trace-order.js';

import type { CallQuery } from '@weft/protocol';
import { TraceNotFoundError } from '../../errors/index.js';
import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { latencyOf, totalTokensOf } from '../../render/index.js';
import { fetchCalls, resolveProject } from '../../server-api/index.js';
import { type Column, writeRows } from '../output-format.js';
import { CALLS_COLUMNS, callRow } from './calls-table.js';
import type { CallsOptions } from './calls-options.js';
import { type CallAtDepth, traceOrder } from './trace-order.js';

/**
 * `weft calls`: the calls of a project that match the filters, newest first
 * by default, as a table, CSV or JSON (an array of the API's calls); with
 * `traceId`, the calls of one trace as a tree in start order.
 */
export async function calls(options: CallsOptions, io: CliIo): Promise<number> {
  const target = { url: options.url, token: options.token };
  const project = await resolveProject(target, options.project);
  const query: Omit<CallQuery, 'limit'> = {
    project,
    ...(options.traceId ? { traceId: options.traceId } : {}),
    ...options.filters,
    // A trace reads top-down from its root; a project listing newest first.
    sort: options.sort ?? { field: 'startedAt', direction: options.traceId ? 'asc' : 'desc' },
  };
  const { calls: found, more } = await fetchCalls(target, query, options.limit);
  // A trace id that names nothing is "not found" (exit 4) in every format;
  // with extra filters an empty answer is just an empty answer.
  if (found.length === 0 && options.traceId && Object.keys(options.filters).length === 0) {
    throw new TraceNotFoundError(options.traceId, project);
  }
  if (found.length === 0 && options.format === 'table') {
    io.stdout.write(`No calls match in project ${project}.\n`);
    return ExitCode.ok;
  }
  const rows =
    options.traceId && options.sort === undefined
      ? traceOrder(found)
      : found.map((call) => ({ call, depth: 0 }));
  writeRows(io, options.format, CALL_COLUMNS, rows, () => found);
  if (options.format === 'table') {
    io.stdout.write(
      `${found.length} call${found.length === 1 ? '' : 's'}${more ? ` shown; more match (raise --limit, now ${options.limit})` : ''}.\n`,
    );
  }
  return ExitCode.ok;
}

/** CSV values: full ISO times, milliseconds, token counts and dollars as numbers. */
const RAW: Partial<
  Record<(typeof CALLS_COLUMNS)[number], (row: CallAtDepth) => string | number | undefined>
> = {
  'started (UTC)': ({ call }) => new Date(call.startedAt).toISOString(),
  op: ({ call }) => callRow({ call, depth: 0 })[1],
  latency: ({ call }) => latencyOf(call),
  tokens: ({ call }) => totalTokensOf(call),
  cost: ({ call }) => call.summary?.costUsd,
};

/** The columns of `weft calls`: the table's cells, and plain values for CSV. */
const CALL_COLUMNS: readonly Column<CallAtDepth>[] = CALLS_COLUMNS.map((title, i) => ({
  title,
  cell: (row: CallAtDepth) => callRow(row)[i]!,
  raw: RAW[title],
}));

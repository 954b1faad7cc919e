import type { CallQuery } from '@weft/protocol';
import type { CliIo } from '../../io/index.js';
import { TraceNotFoundError } from '../../errors/index.js';
import { ExitCode } from '../../exit/index.js';
import { formatCallsTable } from './calls-table.js';
import type { CallsOptions } from './calls-options.js';
import { fetchCalls } from './fetch-calls.js';
import { traceOrder } from './trace-order.js';

/**
 * `weft calls`: the newest calls of a project as a table, or with `traceId`
 * the calls of one trace as a tree in start order.
 */
export async function calls(options: CallsOptions, io: CliIo): Promise<number> {
  const query: Omit<CallQuery, 'limit' | 'cursor'> = {
    project: options.project,
    ...(options.traceId ? { traceId: options.traceId } : {}),
    ...(options.opName ? { opName: options.opName } : {}),
    ...(options.status ? { status: options.status } : {}),
    // A trace reads top-down from its root; a project listing newest first.
    sort: { field: 'startedAt', direction: options.traceId ? 'asc' : 'desc' },
  };
  const { calls: found, more } = await fetchCalls(
    { url: options.url, token: options.token },
    query,
    options.limit,
  );
  // A trace id that names nothing is "not found" (exit 4) in either format;
  // with extra filters an empty answer is just an empty answer.
  if (found.length === 0 && options.traceId && !options.opName && !options.status) {
    throw new TraceNotFoundError(options.traceId, options.project);
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
    return ExitCode.ok;
  }
  if (found.length === 0) {
    io.stdout.write(`No calls match in project ${options.project}.\n`);
    return ExitCode.ok;
  }
  const rows = options.traceId ? traceOrder(found) : found.map((call) => ({ call, depth: 0 }));
  io.stdout.write(`${formatCallsTable(rows)}\n`);
  io.stdout.write(
    `${found.length} call${found.length === 1 ? '' : 's'}${more ? ` shown; more match (raise --limit, now ${options.limit})` : ''}.\n`,
  );
  return ExitCode.ok;
}

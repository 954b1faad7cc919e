import { type Call, formatRef } from '@weft/protocol';
import type { GetCallsOptions } from '../read/index.js';
import type { DatasetHost } from './dataset-host.js';
import { InvalidDatasetOptionsError } from './errors/index.js';
import type { Row } from './load.js';

/** Most calls `Dataset.fromCalls` reads unless the query sets `limit`. */
export const DEFAULT_FROM_CALLS_LIMIT = 10_000;

/** The column every row made from a call carries: the `weft:///<project>/call/<id>` ref of its source call. */
export const SOURCE_CALL_COLUMN = 'sourceCall';

/**
 * The default row of a call: its inputs as columns, its output as
 * `expected` (what the scorers compare with by default), and `sourceCall`.
 */
export function defaultCallRow(call: Call): Row {
  return { ...call.inputs, expected: call.output };
}

/**
 * Reads the calls matching `query` (through the paged query API) and turns
 * each into a row with `map`, adding `sourceCall` unless `map` set it.
 * `map` may return `undefined` to leave a call out.
 */
export async function rowsFromCalls(
  client: Pick<DatasetHost, 'getCalls'>,
  query: GetCallsOptions,
  map: (call: Call) => Row | undefined | Promise<Row | undefined> = defaultCallRow,
): Promise<Row[]> {
  if (typeof map !== 'function')
    throw new InvalidDatasetOptionsError('map', 'must be a function (call) => row');
  const rows: Row[] = [];
  const pages = client.getCalls({ limit: DEFAULT_FROM_CALLS_LIMIT, ...query });
  for await (const call of pages) {
    const row = await map(call);
    if (row === undefined) continue;
    const source = formatRef({ kind: 'call', project: call.project, id: call.id, path: [] });
    rows.push(SOURCE_CALL_COLUMN in row ? row : { ...row, [SOURCE_CALL_COLUMN]: source });
  }
  return rows;
}

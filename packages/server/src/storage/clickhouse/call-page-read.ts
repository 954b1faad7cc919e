import type { CallStatus } from '@weft/protocol';
import { END, START } from './call-halves.js';
import type { FoldedCall } from './call-columns.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { inList, sqlLiteral } from './sql-literal.js';

/** Columns of a start half that a full call shows. */
const START_COLUMNS = [
  'trace_id',
  'parent_id',
  'op_name',
  'has_display',
  'display_name',
  'session_id',
  'started_at',
  'inputs',
  'attributes',
] as const;
/** Columns of an end half that a full call shows. */
const END_COLUMNS = ['ended_at', 'status', 'output', 'exception', 'summary'] as const;

type HalfRow = Record<(typeof START_COLUMNS)[number] | (typeof END_COLUMNS)[number], string | number> & {
  id: string;
  half: number | string;
  seq: number | string;
};

/** 2^52: a list row with both halves ranks above any start alone (`callListRow`'s `version`). */
const ENDED_RANK = 2 ** 52;

/**
 * A full call with the `version` its current `call_list` row has: `2^52`
 * if an end is stored, plus the highest `seq` of its stored halves. A list
 * row is built from stored halves only (they are written first), so no list
 * row of the call has a higher version, and a list row of exactly this one
 * is its newest.
 */
export interface StoredCall extends FoldedCall {
  version: number;
}

/**
 * Full calls of `ids` from their half-rows in `calls`, by id; only those
 * whose start arrived, with their {@link StoredCall.version}. The half-rows are read as stored (a primary-key read
 * of the page's ids) and the newest copy of each half (highest `seq`) is
 * picked here: a `GROUP BY id` with `argMaxIf` over every value column cost
 * twice the read itself on ClickHouse 26 (the aggregation of the value
 * strings), and a page holds at most a few copies per call.
 */
export async function readFullCalls(
  connection: ClickHouseConnection,
  table: string,
  project: string,
  ids: readonly string[],
): Promise<Map<string, StoredCall>> {
  if (ids.length === 0) return new Map();
  return foldHalves(
    await connection.rows<HalfRow>(`
      SELECT id, half, seq, ${[...START_COLUMNS, ...END_COLUMNS].join(', ')} FROM ${table}
      WHERE project = ${sqlLiteral(project)} AND id IN ${inList(ids)}`),
  );
}

/** The newest copy of each half (highest `seq`) of each id among `rows`, folded; only ids whose start is there. */
function foldHalves(rows: readonly HalfRow[]): Map<string, StoredCall> {
  const starts = new Map<string, HalfRow>();
  const ends = new Map<string, HalfRow>();
  const seqs = new Map<string, number>();
  for (const row of rows) {
    seqs.set(row.id, Math.max(seqs.get(row.id) ?? 0, Number(row.seq)));
    const newest = Number(row.half) === START ? starts : Number(row.half) === END ? ends : undefined;
    const held = newest?.get(row.id);
    if (newest !== undefined && (held === undefined || Number(row.seq) > Number(held.seq)))
      newest.set(row.id, row);
  }
  const calls = new Map<string, StoredCall>();
  for (const [id, start] of starts) {
    const end = ends.get(id);
    const version = (end === undefined ? 0 : ENDED_RANK) + (seqs.get(id) ?? 0);
    calls.set(id, { ...foldedOf(start, end), version });
  }
  return calls;
}

/** The newest start and end halves of one call as the folded row `callFromFolded` reads. */
function foldedOf(start: HalfRow, end: HalfRow | undefined): FoldedCall {
  return {
    id: start.id,
    f_has_start: 1,
    f_has_end: end === undefined ? 0 : 1,
    f_trace_id: String(start.trace_id),
    f_parent_id: String(start.parent_id),
    f_op_name: String(start.op_name),
    f_display_name: String(start.display_name),
    f_session_id: String(start.session_id),
    f_has_display: start.has_display,
    f_started_at: Number(start.started_at),
    f_ended_at: end === undefined ? 0 : Number(end.ended_at),
    f_status: end === undefined ? 'running' : (String(end.status) as CallStatus),
    f_inputs: String(start.inputs),
    f_attributes: String(start.attributes),
    f_output: end === undefined ? '' : String(end.output),
    f_exception: end === undefined ? '' : String(end.exception),
    f_summary: end === undefined ? '' : String(end.summary),
  };
}

import type { Call, CallStatus, CallSummary, ExceptionInfo } from '@weft/protocol';
import { fromBlob } from './blob.js';

/** A `calls` row as better-sqlite3 returns it (only listed calls: the start fields are set). */
export interface CallRow {
  project: string;
  id: string;
  trace_id: string;
  parent_id: string | null;
  op_name: string;
  display_name: string | null;
  started_at: number;
  ended_at: number | null;
  status: CallStatus;
  inputs: Uint8Array | null;
  output: Uint8Array | null;
  exception: Uint8Array | null;
  summary: Uint8Array | null;
  attributes: Uint8Array | null;
  session_id: string | null;
}

/** The columns a {@link CallRow} needs, for SELECT lists. */
export const CALL_COLUMNS =
  'project, id, trace_id, parent_id, op_name, display_name, started_at, ended_at, status, inputs, output, exception, summary, attributes, session_id';

/** {@link CALL_COLUMNS} without the values: a light call (`inputs` `{}`, `output` `null`; see `Storage.traceCalls`). */
export const LIGHT_CALL_COLUMNS =
  'project, id, trace_id, parent_id, op_name, display_name, started_at, ended_at, status, NULL AS inputs, NULL AS output, exception, summary, attributes, session_id';

/** Turns a stored row back into the wire shape of a call. */
export function callFromRow(row: CallRow): Call {
  const call: Call = {
    project: row.project,
    id: row.id,
    traceId: row.trace_id,
    parentId: row.parent_id,
    opName: row.op_name,
    displayName: row.display_name,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    status: row.status,
    inputs: fromBlob<Record<string, unknown>>(row.inputs, {}),
    output: fromBlob<unknown>(row.output, null),
    exception: fromBlob<ExceptionInfo | null>(row.exception, null),
    summary: fromBlob<CallSummary | null>(row.summary, null),
    attributes: fromBlob<Record<string, unknown>>(row.attributes, {}),
  };
  // Present only on calls that belong to a session.
  if (row.session_id !== null) call.sessionId = row.session_id;
  return call;
}

import { type Call, CALL_ID } from '@weft/protocol';
import { CallNotFoundError, ServerResponseError, UsageError } from '../errors/index.js';
import type { ServerTarget } from '../http/index.js';
import { fetchTrace, readCall } from '../server-api/index.js';

const SHORT_ID = /^#?([0-9a-f]{16})$/i;

/**
 * A call named as the tools name calls: a full id, or the `#id` of an
 * outline (its last 16 hex digits) with its trace id. A call id in a trace
 * starts with the trace id's first 8 bytes (see `callIdOfSpan`), so the
 * short id is tried as that first; a trace written otherwise is searched.
 */
export async function readCallRef(
  target: ServerTarget,
  project: string,
  ref: string,
  traceId: string | undefined,
): Promise<Call> {
  if (CALL_ID.test(ref)) return readOrNotFound(target, project, ref.toLowerCase());
  const short = SHORT_ID.exec(ref)?.[1]?.toLowerCase();
  if (short === undefined) {
    throw new UsageError(
      `\`call_id\` must be a call id (a UUID) or an outline's #id (16 hex digits); got ${JSON.stringify(ref)}.`,
    );
  }
  if (traceId === undefined)
    throw new UsageError(`The short id ${ref} needs \`trace_id\`: the trace it is from.`);
  const hex = traceId.replaceAll('-', '').toLowerCase().slice(0, 16) + short;
  const guess = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  try {
    return await readCall(target, project, guess);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const found = (await fetchTrace(target, project, traceId.toLowerCase())).find((c) =>
    c.id.replaceAll('-', '').endsWith(short),
  );
  if (found === undefined) throw new CallNotFoundError(ref, `in trace ${traceId} of project ${project}`);
  return found;
}

async function readOrNotFound(target: ServerTarget, project: string, id: string): Promise<Call> {
  try {
    return await readCall(target, project, id);
  } catch (error) {
    if (isNotFound(error)) throw new CallNotFoundError(id, `in project ${project}`);
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return ServerResponseError.isInstance(error) && (error as ServerResponseError).statusCode === 404;
}

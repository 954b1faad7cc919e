import type { CallRecord } from '../../src/calls/call-record.js';
import { callContext } from '../../src/context/index.js';

/** The call record of the op that is running now (the tracer's own object). */
export function runningCall(): CallRecord {
  const call = callContext.getStore()?.call;
  if (call === undefined) throw new Error('not inside an op');
  return call as CallRecord;
}

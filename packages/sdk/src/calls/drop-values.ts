import { releaseSnapshot } from '../values/index.js';
import type { CallRecord } from './call-record.js';

/**
 * Drops a call's inputs and output snapshots once no record of it will be
 * written from them (its last record encoded, or its trace dropped by the
 * sampler), giving back an output written on the caller's turn: that output
 * holds a slice of an arena, and one slice never given back keeps the whole
 * arena from being reused.
 */
export function dropValues(call: CallRecord): void {
  call.inputs = undefined;
  releaseSnapshot(call.output);
  call.output = undefined;
}

import { type CallItem, collectValueRefs, decodeMsgpack, mayHoldValueRefs } from '@weft/protocol';
import type { Storage } from '../storage/index.js';
import type { StoredValue } from '../storage/index.js';

/**
 * The digests a batch refers to — from its call records' markers, and from
 * its values' `prev` and nested markers — that the project does not store
 * (the batch's own values are stored by now). The client sends those again:
 * its memory of what this server has can be wrong after a restart with a
 * wiped database, or when a batch that carried a value was lost.
 */
export async function missingValues(
  storage: Storage,
  project: string,
  calls: readonly CallItem[],
  values: readonly StoredValue[],
): Promise<string[]> {
  const referenced = new Set<string>();
  for (const call of calls) {
    if (call.type !== 'end') {
      collectValueRefs(call.inputs, referenced);
      collectValueRefs(call.attributes, referenced);
    }
    if (call.type !== 'start') collectValueRefs(call.output, referenced);
  }
  for (const value of values) {
    if (value.prev !== undefined) referenced.add(value.prev);
    // A value whose bytes hold no marker of either form is not decoded.
    if (mayHoldValueRefs(value.bytes)) collectValueRefs(decodeMsgpack(value.bytes), referenced);
  }
  for (const value of values) referenced.delete(value.digest);
  if (referenced.size === 0) return [];
  const known = new Set(await storage.knownValues(project, [...referenced]));
  return [...referenced].filter((digest) => !known.has(digest));
}
